import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { BulkImport } from '@/features/bulk-import/bulk-import';
import { paths } from '@/app/paths';

export function UsersImportPage() {
  return (
    <>
      <PageHeader
        back={{ to: paths.users.to(), label: 'users' }}
        title="Import users"
        description="Onboard many people from a CSV or JSON file: every row is checked and planned before anything runs, and running the same file again changes nothing."
      />
      <QueryBoundary>
        <BulkImport cancelHref={paths.users.to()} />
      </QueryBoundary>
    </>
  );
}
