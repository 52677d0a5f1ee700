import { Button, Checkbox, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { partyQueries, type PartyDetails } from '@/api/parties';
import { NEXT_PAGE_PREFETCH_WITHIN_MS, prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { PageSizeSelect } from '@/components/data-table/page-size-select';
import { PagedListFrame } from '@/components/data-table/paged-list-frame';
import { TokenPage } from '@/components/data-table/token-page';
import { EmptyState } from '@/components/feedback/empty-state';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { accessOf } from '@/lib/access/access-rights';
import { currentPageToken } from '@/lib/navigation/page-trail';
import { whenIdle } from '@/lib/scheduling/when-idle';
import { IdentityProviderInput } from '@/pickers/identity-provider-select';
import { filterParties, type PartiesFilter } from './parties-filter';
import {
  PARTIES_PAGE_SIZES,
  withPartiesIdentityProvider,
  type PartiesPageState,
} from './parties-page-state';
import { PartiesTable } from './parties-table';
import { useOtherIdentityProviders } from './use-other-identity-providers';
import { ForbiddenState } from '@/components/feedback/page-state';
import { forbiddenDetails } from '@/lib/errors/forbidden';

const NO_PARTIES: readonly PartyDetails[] = [];

export type PartiesListLinks = {
  newParty: string;
};

export type PartiesListProps = {
  /** Which page to show, from the URL. */
  page: PartiesPageState;
  /** Moves to another page, page size or IdP (the page puts it in the URL). */
  onPageChange: (page: PartiesPageState) => void;
  /** A page change is loading; the current rows stay until it is there. */
  isPageLoading: boolean;
  links: PartiesListLinks;
};

/**
 * The parties the participant knows, a page at a time (pageSize/pageToken), as one IdP sees them:
 * the participant lists every party, but shows the local details (locality, IdP, annotations)
 * only of the parties of the IdP the request names (ledger-api-behaviour.md §4.7, §5.2).
 */
export function PartiesList({ page, onPageChange, isPageLoading, links }: PartiesListProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const [text, setText] = useState('');
  // An IdP admin's console is its IdP's: it starts with its own parties, the others one click away.
  const [isLocalOnly, setIsLocalOnly] = useState(
    access.administeredIdentityProviderId !== undefined,
  );
  // Typing stays responsive while a large page is filtered.
  const filter = useDeferredValue<PartiesFilter>(
    useMemo(() => ({ text, isLocalOnly }), [text, isLocalOnly]),
  );
  const fixedIdentityProviderId = access.administeredIdentityProviderId;
  const canList = access.canManageUsers;

  if (!canList) {
    return (
      <ForbiddenState
        title="You may not list parties"
        {...forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin'])}
        actions={
          <Text size="sm">A party you may act or read as can still be opened from its link.</Text>
        }
      />
    );
  }

  const effectivePage =
    fixedIdentityProviderId === undefined
      ? page
      : { ...page, identityProviderId: fixedIdentityProviderId };

  return (
    <PagedListFrame
      toolbar={
        <>
          <IdentityProviderInput
            label="Identity provider"
            description="Whose view of the parties"
            w={240}
            value={effectivePage.identityProviderId}
            onChange={(identityProviderId) => {
              onPageChange(withPartiesIdentityProvider(page, identityProviderId));
            }}
          />
          <TextInput
            label="Filter parties"
            description="Over this page"
            placeholder="Id, IdP or annotation"
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
            }}
            w={280}
          />
          <PageSizeSelect sizes={PARTIES_PAGE_SIZES} page={page} onPageChange={onPageChange} />
          <Checkbox
            label="Local parties only"
            checked={isLocalOnly}
            onChange={(event) => {
              setIsLocalOnly(event.currentTarget.checked);
            }}
            mb={8}
          />
        </>
      }
      scopeNote={
        <ScopeNote
          identityProviderId={effectivePage.identityProviderId}
          isFixed={fixedIdentityProviderId !== undefined}
        />
      }
      scopeNotePlacement="below-toolbar"
    >
      <PartiesPageView
        page={effectivePage}
        onPageChange={onPageChange}
        isPageLoading={isPageLoading}
        filter={filter}
        links={links}
        isParticipantAdmin={access.isParticipantAdmin}
      />
    </PagedListFrame>
  );
}

function ScopeNote({
  identityProviderId,
  isFixed,
}: {
  identityProviderId: string;
  isFixed: boolean;
}) {
  const idp = identityProviderId === '' ? 'the default identity provider' : identityProviderId;
  return (
    <Text size="sm" c="dimmed" maw={900}>
      The participant lists every party it knows, including parties hosted on other participants. A
      party is <strong>local</strong> when it is hosted here and belongs to{' '}
      {isFixed ? `your identity provider, ${idp}` : idp}. Parties of other identity providers are
      shown without their annotations: as &ldquo;Other identity provider&rdquo; when the console can
      tell which (participant admins), otherwise as not local.
    </Text>
  );
}

type PartiesPageViewProps = {
  page: PartiesPageState;
  onPageChange: (page: PartiesPageState) => void;
  isPageLoading: boolean;
  filter: PartiesFilter;
  links: PartiesListLinks;
  isParticipantAdmin: boolean;
};

function PartiesPageView({
  page,
  onPageChange,
  isPageLoading,
  filter,
  links,
  isParticipantAdmin,
}: PartiesPageViewProps) {
  const otherIdentityProviders = useOtherIdentityProviders(
    page.identityProviderId,
    isParticipantAdmin,
  );
  const queryClient = useQueryClient();
  const request = {
    pageSize: page.pageSize,
    pageToken: currentPageToken(page),
    identityProviderId: page.identityProviderId,
  };
  // As the users list reads its page (users-list.tsx says why): not suspending, in one task.
  const { data, isFetching } = useQuery({ ...partyQueries.list(request), throwOnError: true });
  const parties = data?.partyDetails ?? NO_PARTIES;
  const shown = useMemo(() => filterParties(parties, filter), [parties, filter]);
  const nextPageToken = data?.nextPageToken ?? '';
  const isFiltered = filter.text.trim() !== '' || filter.isLocalOnly;

  // The next page is likely wanted: fetch it as soon as this one is on screen, so flipping to it
  // is instant. Not in the task that shows this page: a flip renders it in the click (ADR 030),
  // and a request started there would delay that frame.
  useEffect(() => {
    if (!nextPageToken) return undefined;
    return whenIdle(() => {
      void prefetch(
        queryClient,
        partyQueries.list({
          pageSize: page.pageSize,
          pageToken: nextPageToken,
          identityProviderId: page.identityProviderId,
        }),
      );
    }, NEXT_PAGE_PREFETCH_WITHIN_MS);
  }, [queryClient, nextPageToken, page.pageSize, page.identityProviderId]);

  if (data === undefined) return <SectionSkeleton lines={8} />;
  return (
    <TokenPage
      page={page}
      onPageChange={onPageChange}
      rowsNoun="parties"
      pagerLabel="Parties pages"
      rowCount={parties.length}
      matchCount={isFiltered ? shown.length : undefined}
      nextPageToken={nextPageToken}
      isRefreshing={isFetching || isPageLoading}
      empty={
        <EmptyState
          title="No parties yet"
          description="This participant knows no parties. Allocate one to act on the ledger."
          action={
            <Button component={Link} to={links.newParty}>
              Allocate party
            </Button>
          }
        />
      }
      noMatchText="No parties on this page match the filter."
    >
      <PartiesTable
        parties={shown}
        otherIdentityProviders={otherIdentityProviders}
        isBusy={isPageLoading}
        caption="Ordered by party id, as the participant returns them. Hover a shortened id to see it in full."
      />
    </TokenPage>
  );
}
