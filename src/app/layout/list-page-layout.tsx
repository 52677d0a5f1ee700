import type { ReactNode } from 'react';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';

export type ListPageLayoutProps = {
  title: string;
  description: string;
  /** Beside the header, e.g. the button that creates an entry. */
  actions: ReactNode;
  /** The list, which reads its data with useSuspenseQuery. */
  children: ReactNode;
};

/** A list screen: its header with actions, then the list, loading and failing in place. */
export function ListPageLayout({ title, description, actions, children }: ListPageLayoutProps) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <QueryBoundary fallback={<SectionSkeleton lines={8} />}>{children}</QueryBoundary>
    </>
  );
}
