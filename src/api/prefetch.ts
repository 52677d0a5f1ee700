import type { QueryClient, QueryExecuteOptions, QueryKey } from '@tanstack/react-query';

/**
 * Starts a query for a screen that is about to show it (a route's loader, the next page of a
 * list), without making the caller fail with it: a failed prefetch is not lost, since the query
 * keeps its error and the section that reads it shows it (or, for a page not shown yet, fetches it
 * again). Resolves with the data, or undefined when the query failed, so a loader may wait for it
 * or chain another prefetch on it.
 */
export function prefetch<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: QueryExecuteOptions<TQueryFnData, TError, TData, TQueryFnData, TQueryKey>,
): Promise<TData | undefined> {
  return queryClient.query(options).catch(() => undefined);
}

/**
 * The query's data is in the cache and fresh: `queryClient.query` (and so `prefetch`) would
 * resolve with it without a request, and a screen reading it would not suspend.
 */
export function isFresh<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: QueryExecuteOptions<TQueryFnData, TError, TData, TQueryFnData, TQueryKey>,
): boolean {
  const { queryKey, staleTime } = queryClient.defaultQueryOptions(options);
  const query = queryClient.getQueryCache().find({ queryKey, exact: true });
  // A stale time computed per query is not resolved here: such a query counts as not fresh.
  if (query?.state.data === undefined || typeof staleTime === 'function') return false;
  return !query.isStaleByTime(staleTime);
}

/**
 * How long a list waits at most for the browser to be idle before it fetches its next page: the
 * fetch stays out of the task that shows a page, and starts soon after it all the same.
 */
export const NEXT_PAGE_PREFETCH_WITHIN_MS = 250;
