import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { notify } from '@/components/feedback/notify';
import { isRetryable } from '@/lib/api-error';

type ErrorDisplay = {
  /** 'inline': the screen shows the error itself (forms, polled panels); default 'toast'. */
  errorDisplay?: 'toast' | 'inline';
};

declare module '@tanstack/react-query' {
  // Module augmentation only works by merging into the library's interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Register {
    queryMeta: ErrorDisplay;
    mutationMeta: ErrorDisplay & { invalidates?: readonly QueryKey[] };
  }
}

export type CreateQueryClientOptions = {
  /** How often a retryable query failure is retried; tests pass 0. */
  retries?: number;
};

/** The app's QueryClient: retry policy, and the one place that turns cache errors into toasts. */
export function createQueryClient({ retries = 2 }: CreateQueryClientOptions = {}): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    defaultOptions: {
      // Retry only what the API calls transient (network, contention); never 4xx-style errors.
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => failureCount < retries && isRetryable(error),
      },
    },
    queryCache: new QueryCache({
      // A failed *background* refresh keeps the stale screen and tells the user once; first loads
      // fail into their QueryBoundary instead.
      onError: (error, query) => {
        if (query.state.data !== undefined && query.meta?.errorDisplay !== 'inline') {
          notify.error(error, 'Could not refresh');
        }
      },
    }),
    mutationCache: new MutationCache({
      // Returning the promise keeps the mutation pending until the refetch is done.
      onSuccess: (_data, _variables, _onMutateResult, mutation) =>
        Promise.all(
          (mutation.meta?.invalidates ?? []).map((queryKey) =>
            queryClient.invalidateQueries({ queryKey }),
          ),
        ),
      onError: (error, _variables, _onMutateResult, mutation) => {
        if (mutation.meta?.errorDisplay !== 'inline') notify.error(error);
      },
    }),
  });
  return queryClient;
}
