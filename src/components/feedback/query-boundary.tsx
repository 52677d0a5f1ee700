import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { ErrorAlert } from './error-alert';
import { ErrorBoundary } from './error-boundary';
import { SectionSkeleton } from './section-skeleton';

export type QueryBoundaryProps = {
  children: ReactNode;
  fallback?: ReactNode;
};

/** Loading skeleton + error-with-retry for any subtree that reads with useSuspenseQuery. */
export function QueryBoundary({ children, fallback = <SectionSkeleton /> }: QueryBoundaryProps) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          onReset={reset}
          fallbackRender={({ error, resetErrorBoundary }) => (
            <ErrorAlert error={error} onRetry={resetErrorBoundary} />
          )}
        >
          <Suspense fallback={fallback}>{children}</Suspense>
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}
