import { useCallback } from 'react';
import { useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router';

/**
 * The page of a paged list screen, kept in the URL: the page read from the search params, a
 * change written back to them, and whether the route's loader is fetching the next page (its
 * rows then stay on screen, marked busy, until the next ones are there).
 *
 * `isReady(page)` says a page's rows are in the cache, fresh (the next page, prefetched). A flip
 * to such a page has nothing to wait for: with {@link skipLoaderWhenReady} as the route's
 * `shouldRevalidate` no loader runs, and the page is rendered at once (`flushSync`) instead of in
 * a transition's time slices, which a 50-row flip spent in yields and an extra frame.
 */
export function usePagedRoute<T>(
  pathname: string,
  parse: (params: URLSearchParams) => T,
  toSearchParams: (page: T) => URLSearchParams,
  isReady?: (page: T) => boolean,
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const page = parse(searchParams);
  const isPageLoading = navigation.state === 'loading' && navigation.location.pathname === pathname;
  const handlePageChange = useCallback(
    (next: T) => {
      setSearchParams(toSearchParams(next), { flushSync: isReady?.(next) === true });
    },
    [setSearchParams, toSearchParams, isReady],
  );
  return { page, isPageLoading, handlePageChange };
}

/**
 * A paged route's `shouldRevalidate`: its loader (which waits for the page) does not run for a
 * move within the route to a page that `isReady`; anything else revalidates as by default.
 */
export function skipLoaderWhenReady(isReady: (params: URLSearchParams) => boolean) {
  return ({
    currentUrl,
    nextUrl,
    formMethod,
    defaultShouldRevalidate,
  }: ShouldRevalidateFunctionArgs): boolean =>
    defaultShouldRevalidate &&
    !(
      formMethod === undefined &&
      currentUrl.pathname === nextUrl.pathname &&
      isReady(nextUrl.searchParams)
    );
}
