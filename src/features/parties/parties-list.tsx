import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { partyQueries } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import { TokenPager } from '@/components/data-table/token-pager';
import { EmptyState } from '@/components/feedback/empty-state';
import { accessOf } from '@/lib/access-rights';
import {
  currentPageToken,
  nextPage,
  pageNumber as pageNumberOf,
  pageStatusText,
  previousPage,
  withPageSize,
} from '@/lib/page-trail';
import { IdentityProviderInput } from '@/pickers/identity-provider-select';
import { filterParties, type PartiesFilter } from './parties-filter';
import {
  PARTIES_PAGE_SIZES,
  withPartiesIdentityProvider,
  type PartiesPageState,
} from './parties-page-state';
import { PartiesTable } from './parties-table';

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
  const [isLocalOnly, setIsLocalOnly] = useState(false);
  // Typing stays responsive while a large page is filtered.
  const filter = useDeferredValue<PartiesFilter>(
    useMemo(() => ({ text, isLocalOnly }), [text, isLocalOnly]),
  );
  const fixedIdentityProviderId = access.administeredIdentityProviderId;
  const canList = access.canManageUsers;

  if (!canList) {
    return (
      <Alert color="blue" title="You cannot list parties">
        Listing parties needs the ParticipantAdmin or IdentityProviderAdmin right, and you have
        neither. A party you may act or read as can still be opened from its link.
      </Alert>
    );
  }

  const effectivePage =
    fixedIdentityProviderId === undefined
      ? page
      : { ...page, identityProviderId: fixedIdentityProviderId };

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
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
        <NativeSelect
          label="Page size"
          data={PARTIES_PAGE_SIZES.map(String)}
          value={String(page.pageSize)}
          onChange={(event) => {
            onPageChange(withPageSize(page, Number(event.currentTarget.value)));
          }}
          w={110}
        />
        <Checkbox
          label="Local parties only"
          checked={isLocalOnly}
          onChange={(event) => {
            setIsLocalOnly(event.currentTarget.checked);
          }}
          mb={8}
        />
      </Group>
      <ScopeNote
        identityProviderId={effectivePage.identityProviderId}
        isFixed={fixedIdentityProviderId !== undefined}
      />
      <PartiesPageView
        page={effectivePage}
        onPageChange={onPageChange}
        isPageLoading={isPageLoading}
        filter={filter}
        links={links}
      />
    </Stack>
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
      {isFixed ? `your identity provider, ${idp}` : idp}; parties of other identity providers show
      as not local, without their identity provider and annotations.
    </Text>
  );
}

type PartiesPageViewProps = {
  page: PartiesPageState;
  onPageChange: (page: PartiesPageState) => void;
  isPageLoading: boolean;
  filter: PartiesFilter;
  links: PartiesListLinks;
};

function PartiesPageView({
  page,
  onPageChange,
  isPageLoading,
  filter,
  links,
}: PartiesPageViewProps) {
  const queryClient = useQueryClient();
  const request = {
    pageSize: page.pageSize,
    pageToken: currentPageToken(page),
    identityProviderId: page.identityProviderId,
  };
  const { data, isFetching } = useSuspenseQuery(partyQueries.list(request));
  const parties = data.partyDetails;
  const shown = useMemo(() => filterParties(parties, filter), [parties, filter]);
  const nextPageToken = data.nextPageToken ?? '';
  const pageNumber = pageNumberOf(page);
  const isFiltered = filter.text.trim() !== '' || filter.isLocalOnly;

  // The next page is likely wanted: fetch it now, so flipping to it is instant.
  useEffect(() => {
    if (nextPageToken) {
      // A failed prefetch costs nothing: flipping to the page fetches it again.
      void queryClient
        .query(
          partyQueries.list({
            pageSize: page.pageSize,
            pageToken: nextPageToken,
            identityProviderId: page.identityProviderId,
          }),
        )
        .catch(() => undefined);
    }
  }, [queryClient, nextPageToken, page.pageSize, page.identityProviderId]);

  if (parties.length === 0 && pageNumber === 1) {
    return (
      <EmptyState
        title="No parties yet"
        description="This participant knows no parties. Allocate one to act on the ledger."
        action={
          <Button component={Link} to={links.newParty}>
            Allocate party
          </Button>
        }
      />
    );
  }

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm" role="status">
          {pageStatusText(page, 'parties', parties.length, isFiltered ? shown.length : undefined)}
        </Text>
        {(isFetching || isPageLoading) && (
          <Loader size="xs" role="status" aria-label="Refreshing parties" />
        )}
      </Group>
      {parties.length === 0 ? (
        <Text size="sm" c="dimmed">
          No more parties: the previous page ended exactly with the last one.
        </Text>
      ) : shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          No parties on this page match the filter.
        </Text>
      ) : (
        <PartiesTable
          parties={shown}
          isBusy={isPageLoading}
          caption="Ordered by party id, as the participant returns them. Hover a shortened id to see it in full."
        />
      )}
      <TokenPager
        label="Parties pages"
        rowsNoun="parties"
        pageNumber={pageNumber}
        hasNextPage={nextPageToken !== ''}
        isEmptyPage={parties.length === 0}
        onPrevious={() => {
          onPageChange(previousPage(page));
        }}
        onNext={() => {
          onPageChange(nextPage(page, nextPageToken));
        }}
      />
    </Stack>
  );
}
