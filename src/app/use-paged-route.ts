import { useCallback } from 'react';
import { useNavigation, useSearchParams } from 'react-router';

/**
 * The page of a paged list screen, kept in the URL: the page read from the search params, a
 * change written back to them, and whether the route's loader is fetching the next page (its
 * rows then stay on screen, marked busy, until the next ones are there).
 */
export function usePagedRoute<T>(
  pathname: string,
  parse: (params: URLSearchParams) => T,
  toSearchParams: (page: T) => URLSearchParams,
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const page = parse(searchParams);
  const isPageLoading = navigation.state === 'loading' && navigation.location.pathname === pathname;
  const handlePageChange = useCallback(
    (next: T) => {
      setSearchParams(toSearchParams(next));
    },
    [setSearchParams, toSearchParams],
  );
  return { page, isPageLoading, handlePageChange };
}
