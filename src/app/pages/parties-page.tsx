import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { partyQueries } from '@/api/parties';
import { isFresh, prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { PartiesHeaderActions } from '@/features/parties/parties-header-actions';
import { PartiesList } from '@/features/parties/parties-list';
import {
  parsePartiesPageState,
  toPartiesPageSearchParams,
  type PartiesPageState,
} from '@/features/parties/parties-page-state';
import { accessOf, type Access } from '@/lib/access/access-rights';
import { currentPageToken } from '@/lib/navigation/page-trail';
import { ListPageLayout } from '@/app/layout/list-page-layout';
import { paths } from '@/app/paths';
import { skipLoaderWhenReady, usePagedRoute } from '@/app/use-paged-route';

const links = { newParty: paths.newParty.to() };

// An IdP admin lists its own IdP's parties, whatever the URL says.
const listOf = (page: PartiesPageState, access: Access) =>
  partyQueries.list({
    pageSize: page.pageSize,
    pageToken: currentPageToken(page),
    identityProviderId: access.administeredIdentityProviderId ?? page.identityProviderId,
  });

/** The page's parties are in the cache, fresh, for the caller the cache knows. */
function isPageFresh(queryClient: QueryClient, page: PartiesPageState): boolean {
  const caller = queryClient.getQueryData(sessionQueries.caller().queryKey);
  const access = caller && accessOf(caller);
  return access?.canManageUsers === true && isFresh(queryClient, listOf(page, access));
}

/** A flip to a page already fetched (the next one is prefetched) does not wait in the loader. */
export function partiesPageShouldRevalidate(queryClient: QueryClient) {
  return skipLoaderWhenReady((params) => isPageFresh(queryClient, parsePartiesPageState(params)));
}

/**
 * On a page flip (or back/forward) it waits for the next page, so the current rows stay on screen
 * until the next ones are there. On the first visit the page renders at once and the list fills
 * in; it is fetched only for callers who may list parties (the caller decides which IdP's view).
 */
export function partiesPageLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const page = parsePartiesPageState(new URL(request.url).searchParams);
    const hasShownParties =
      queryClient.getQueriesData({ queryKey: partyQueries.lists() }).length > 0;
    const parties = prefetch(queryClient, sessionQueries.caller()).then((caller) => {
      const access = caller && accessOf(caller);
      if (!access?.canManageUsers) return undefined;
      return prefetch(queryClient, listOf(page, access));
    });
    if (hasShownParties) await parties;
    return null;
  };
}

export function PartiesPage() {
  const queryClient = useQueryClient();
  const isReady = useCallback(
    (page: PartiesPageState) => isPageFresh(queryClient, page),
    [queryClient],
  );
  const { page, isPageLoading, handlePageChange } = usePagedRoute(
    paths.parties.to(),
    parsePartiesPageState,
    toPartiesPageSearchParams,
    isReady,
  );

  return (
    <ListPageLayout
      title="Parties"
      description="The parties this participant knows, and those hosted here."
      actions={
        <PartiesHeaderActions
          newPartyHref={paths.newParty.to()}
          newExternalPartyHref={paths.newExternalParty.to()}
        />
      }
    >
      <PartiesList
        page={page}
        onPageChange={handlePageChange}
        isPageLoading={isPageLoading}
        links={links}
      />
    </ListPageLayout>
  );
}
