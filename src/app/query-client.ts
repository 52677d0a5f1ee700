import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { notify } from '@/components/feedback/notify';
import { isRetryable } from '@/lib/errors/api-error';
import type { ActivityMeta } from '@/lib/activity/activity-spec';
import { createActivityRecorder } from '@/features/activity/activity-recorder';

type ErrorDisplay = {
  /** 'inline': the screen shows the error itself (forms, polled panels); default 'toast'. */
  errorDisplay?: 'toast' | 'inline';
};

declare module '@tanstack/react-query' {
  // Module augmentation only works by merging into the library's interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Register {
    queryMeta: ErrorDisplay;
    mutationMeta: ErrorDisplay & {
      invalidates?: readonly QueryKey[];
      /** How the activity log records this mutation; admin mutations have one. */
      activity?: ActivityMeta;
    };
  }
}

export type CreateQueryClientOptions = {
  /** How often a retryable query failure is retried; tests pass 0. */
  retries?: number;
};

/** The app's QueryClient: retry policy, and the one place that turns cache errors into toasts. */
export function createQueryClient({ retries = 2 }: CreateQueryClientOptions = {}): QueryClient {
  const activity = createActivityRecorder(() => queryClient);
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
      // Every admin mutation is logged here, so no form has to remember to.
      onMutate: (variables, mutation) => {
        activity.start(mutation, variables);
      },
      // Returning the promise keeps the mutation pending until the refetch is done.
      onSuccess: (data, _variables, _onMutateResult, mutation) => {
        activity.settle(mutation, { data });
        return Promise.all(
          (mutation.meta?.invalidates ?? []).map((queryKey) =>
            queryClient.invalidateQueries({ queryKey }),
          ),
        );
      },
      onError: (error, _variables, _onMutateResult, mutation) => {
        activity.settle(mutation, { error });
        if (mutation.meta?.errorDisplay !== 'inline') notify.error(error);
      },
    }),
  });
  return queryClient;
}
