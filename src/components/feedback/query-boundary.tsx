import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary';
import { ErrorState, type ErrorStateProps } from './error-state';
import { SectionSkeleton } from './section-skeleton';

export type QueryBoundaryProps = {
  children: ReactNode;
  fallback?: ReactNode;
  /** What a "not found" answer means for this subtree: the id and the list to go to. */
  notFound?: ErrorStateProps['notFound'];
  /** The right the subtree needs, named when the participant refuses. */
  need?: string;
};

/** Loading skeleton + the console's error states for any subtree that reads with useSuspenseQuery. */
export function QueryBoundary({
  children,
  fallback = <SectionSkeleton />,
  notFound,
  need,
}: QueryBoundaryProps) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          onReset={reset}
          fallbackRender={({ error, resetErrorBoundary }) => (
            <ErrorState
              error={error}
              onRetry={resetErrorBoundary}
              {...(notFound === undefined ? {} : { notFound })}
              {...(need === undefined ? {} : { need })}
            />
          )}
        >
          <Suspense fallback={fallback}>{children}</Suspense>
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}
