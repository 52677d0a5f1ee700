import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { isFresh, prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { userQueries } from '@/api/users';
import { UsersHeaderActions } from '@/features/users/users-header-actions';
import { UsersList } from '@/features/users/users-list';
import {
  parseUsersPageState,
  toUsersPageSearchParams,
  type UsersPageState,
} from '@/features/users/users-page-state';
import { currentPageToken } from '@/lib/navigation/page-trail';
import { ListPageLayout } from '@/app/layout/list-page-layout';
import { paths } from '@/app/paths';
import { skipLoaderWhenReady, usePagedRoute } from '@/app/use-paged-route';

const links = {
  user: paths.user.to,
  newUser: paths.newUser.to(),
  identityProviders: paths.identityProviders.to(),
};
// One element for every render, so the memoized header is not rendered again on a page flip.
const headerActions = (
  <UsersHeaderActions newUserHref={paths.newUser.to()} importHref={paths.usersImport.to()} />
);

const listOf = (page: UsersPageState) =>
  userQueries.list({ pageSize: page.pageSize, pageToken: currentPageToken(page) });

/**
 * On a page flip (or back/forward) it waits for the next page, so the current rows stay on screen
 * until the next ones are there instead of flashing a skeleton. On the first visit there are no
 * rows to keep: the page and its frame render at once, and the list fills in when the users come.
 */
export function usersPageLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const page = parseUsersPageState(new URL(request.url).searchParams);
    void prefetch(queryClient, sessionQueries.caller());
    const hasShownUsers = queryClient.getQueriesData({ queryKey: userQueries.lists() }).length > 0;
    const users = prefetch(queryClient, listOf(page));
    if (hasShownUsers) await users;
    return null;
  };
}

/** A flip to a page already fetched (the next one is prefetched) does not wait in the loader. */
export function usersPageShouldRevalidate(queryClient: QueryClient) {
  return skipLoaderWhenReady((params) => isFresh(queryClient, listOf(parseUsersPageState(params))));
}

export function UsersPage() {
  const queryClient = useQueryClient();
  const isReady = useCallback(
    (page: UsersPageState) => isFresh(queryClient, listOf(page)),
    [queryClient],
  );
  const { page, isPageLoading, handlePageChange } = usePagedRoute(
    paths.users.to(),
    parseUsersPageState,
    toUsersPageSearchParams,
    isReady,
  );

  return (
    <ListPageLayout
      title="Users"
      description="Users of this participant and their status."
      actions={headerActions}
    >
      <UsersList
        page={page}
        onPageChange={handlePageChange}
        isPageLoading={isPageLoading}
        links={links}
      />
    </ListPageLayout>
  );
}
