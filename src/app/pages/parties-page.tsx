import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { partyQueries } from '@/api/parties';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { PartiesHeaderActions } from '@/features/parties/parties-header-actions';
import { PartiesList } from '@/features/parties/parties-list';
import {
  parsePartiesPageState,
  toPartiesPageSearchParams,
} from '@/features/parties/parties-page-state';
import { accessOf } from '@/lib/access/access-rights';
import { currentPageToken } from '@/lib/navigation/page-trail';
import { ListPageLayout } from '@/app/layout/list-page-layout';
import { paths } from '@/app/paths';
import { usePagedRoute } from '@/app/use-paged-route';

const links = { newParty: paths.newParty.to() };

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
      return prefetch(
        queryClient,
        partyQueries.list({
          pageSize: page.pageSize,
          pageToken: currentPageToken(page),
          identityProviderId: access.administeredIdentityProviderId ?? page.identityProviderId,
        }),
      );
    });
    if (hasShownParties) await parties;
    return null;
  };
}

export function PartiesPage() {
  const { page, isPageLoading, handlePageChange } = usePagedRoute(
    paths.parties.to(),
    parsePartiesPageState,
    toPartiesPageSearchParams,
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
