import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { memo, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { NEXT_PAGE_PREFETCH_WITHIN_MS, prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { userQueries, type User } from '@/api/users';
import { downloadFile } from '@/components/data-table/download-file';
import { PageSizeSelect } from '@/components/data-table/page-size-select';
import { PagedListFrame } from '@/components/data-table/paged-list-frame';
import { TokenPage } from '@/components/data-table/token-page';
import { CancellableProgress } from '@/components/feedback/cancellable-progress';
import { EmptyState } from '@/components/feedback/empty-state';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { accessOf } from '@/lib/access/access-rights';
import { formatCount } from '@/lib/text/format';
import { currentPageToken } from '@/lib/navigation/page-trail';
import { whenIdle } from '@/lib/scheduling/when-idle';
import { useLoadAllUsers, type LoadAllUsersState } from './use-load-all-users';
import {
  USERS_EXPORT_MIME_TYPES,
  usersExportFileName,
  usersToCsv,
  usersToJson,
  type UsersExportFormat,
} from './users-export';
import { DEFAULT_USERS_SORT, filterUsers, sortUsers, type UsersSort } from './users-filter-sort';
import { USERS_PAGE_SIZES, type UsersPageState } from './users-page-state';
import { UsersTable } from './users-table';

export type UsersListLinks = {
  user: (userId: string, identityProviderId: string) => string;
  newUser: string;
  identityProviders: string;
};

export type UsersListProps = {
  /** Which page to show, from the URL. */
  page: UsersPageState;
  /** Moves to another page or page size (the page puts it in the URL). */
  onPageChange: (page: UsersPageState) => void;
  /** A page change is loading; the current rows stay until it is there. */
  isPageLoading: boolean;
  links: UsersListLinks;
};

/**
 * The users the caller may list, a page at a time (pageSize/pageToken), or all of them at once to
 * filter, sort and export. The API gives no totals, so the list only ever says what it knows.
 */
export function UsersList({ page, onPageChange, isPageLoading, links }: UsersListProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const loadAll = useLoadAllUsers();
  const [filter, setFilter] = useState('');
  // Typing stays responsive while a large set is filtered in the background.
  const deferredFilter = useDeferredValue(filter);
  const [sort, setSort] = useState<UsersSort>(DEFAULT_USERS_SORT);
  const { state: loadState } = loadAll;
  const allState =
    loadState.status === 'idle' || loadState.status === 'loading' ? undefined : loadState;
  const isAllMode = allState !== undefined;

  return (
    <PagedListFrame
      scopeNote={
        <ScopeNote
          isParticipantAdmin={access.isParticipantAdmin}
          administeredIdentityProviderId={access.administeredIdentityProviderId}
          identityProvidersHref={links.identityProviders}
        />
      }
      scopeNotePlacement="above-toolbar"
      toolbar={
        <>
          <FilterField value={filter} isAllMode={isAllMode} onChange={setFilter} />
          {!isAllMode && (
            <PageSizeSelect sizes={USERS_PAGE_SIZES} page={page} onPageChange={onPageChange} />
          )}
          <LoadAllControls
            state={loadState}
            start={loadAll.start}
            resume={loadAll.resume}
            reset={loadAll.reset}
          />
        </>
      }
    >
      <LoadAllProgress state={loadState} onCancel={loadAll.cancel} />
      {allState ? (
        <AllUsersView
          state={allState}
          filter={deferredFilter}
          sort={sort}
          onSortChange={setSort}
          links={links}
        />
      ) : (
        <UsersPageView
          page={page}
          onPageChange={onPageChange}
          isPageLoading={isPageLoading}
          filter={deferredFilter}
          canManageUsers={access.canManageUsers}
          links={links}
        />
      )}
    </PagedListFrame>
  );
}

// The toolbar's parts are memoized: a page flip renders the list again, and they do not change.

const FilterField = memo(function FilterField({
  value,
  isAllMode,
  onChange,
}: {
  value: string;
  isAllMode: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      label="Filter users"
      description={
        isAllMode ? 'Over all loaded users' : 'Over this page; load all users to search all'
      }
      placeholder="Id, party, IdP, status or annotation"
      value={value}
      onChange={(event) => {
        onChange(event.currentTarget.value);
      }}
      w={320}
    />
  );
});

const ScopeNote = memo(function ScopeNote({
  isParticipantAdmin,
  administeredIdentityProviderId,
  identityProvidersHref,
}: {
  isParticipantAdmin: boolean;
  administeredIdentityProviderId: string | undefined;
  identityProvidersHref: string;
}) {
  if (administeredIdentityProviderId !== undefined) {
    return (
      <Alert variant="light" color="blue" title="Users of your identity provider">
        This list shows the users of your identity provider,{' '}
        <Text span ff="monospace" size="sm">
          {administeredIdentityProviderId || 'default'}
        </Text>
        . Users of other identity providers are not visible to you.
      </Alert>
    );
  }
  if (!isParticipantAdmin) return null;
  return (
    <Alert variant="light" color="blue" title="Users of the default identity provider">
      The JSON API lists only the default identity provider&apos;s users to a participant admin (GET
      /v2/users has no identity provider parameter). Users of other identity providers are found on
      each{' '}
      {/* Inherits the alert's text colour: primary-coloured text on its tint is below 4.5:1. */}
      <Anchor component={Link} to={identityProvidersHref} size="sm" c="inherit" underline="always">
        identity provider&apos;s page
      </Anchor>
      .
    </Alert>
  );
});

type LoadAllControlsProps = {
  state: LoadAllUsersState;
  start: () => void;
  resume: () => void;
  reset: () => void;
};

const LoadAllControls = memo(function LoadAllControls({
  state,
  start,
  resume,
  reset,
}: LoadAllControlsProps) {
  switch (state.status) {
    case 'idle':
      return (
        <Button variant="default" onClick={start}>
          Load all users
        </Button>
      );
    case 'loading':
      return null;
    case 'done':
      return (
        <>
          <Button variant="default" onClick={start}>
            Reload all users
          </Button>
          <Button variant="subtle" onClick={reset}>
            Back to pages
          </Button>
        </>
      );
    case 'cancelled':
    case 'failed':
      return (
        <>
          <Button variant="default" onClick={resume}>
            Continue loading
          </Button>
          <Button variant="subtle" onClick={reset}>
            Back to pages
          </Button>
        </>
      );
  }
});

function LoadAllProgress({ state, onCancel }: { state: LoadAllUsersState; onCancel: () => void }) {
  if (state.status !== 'loading') return null;
  return (
    <CancellableProgress
      label="Loading all users"
      status={`Loading all users: ${formatCount(state.users.length, 'user', 'users')} in ${formatCount(state.pages, 'page', 'pages')} so far…`}
      onCancel={onCancel}
    />
  );
}

type AllUsersViewProps = {
  state: Exclude<LoadAllUsersState, { status: 'idle' } | { status: 'loading' }>;
  filter: string;
  sort: UsersSort;
  onSortChange: (sort: UsersSort) => void;
  links: UsersListLinks;
};

function AllUsersView({ state, filter, sort, onSortChange, links }: AllUsersViewProps) {
  const { users, pages } = state;
  const sorted = useMemo(() => sortUsers(users, sort), [users, sort]);
  const shown = useMemo(() => filterUsers(sorted, filter), [sorted, filter]);
  const loaded = formatCount(users.length, 'user', 'users');
  const summary =
    state.status === 'done'
      ? `All ${loaded} loaded (${formatCount(pages, 'page', 'pages')})`
      : state.status === 'cancelled'
        ? `Loading cancelled: ${loaded} loaded (${formatCount(pages, 'page', 'pages')}); more may follow`
        : `Loading stopped by an error: ${loaded} loaded (${formatCount(pages, 'page', 'pages')})`;

  return (
    <Stack gap="sm">
      {state.status === 'failed' && <ErrorAlert error={state.error} />}
      <Group justify="space-between">
        <Text size="sm" role="status">
          {summary}
          {filter.trim() ? ` · showing ${formatCount(shown.length, 'match', 'matches')}` : ''}
        </Text>
        <ExportButtons users={shown} />
      </Group>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {users.length === 0 ? 'No users.' : `No loaded users match “${filter.trim()}”.`}
        </Text>
      ) : (
        <UsersTable
          users={shown}
          userHref={links.user}
          sort={sort}
          onSortChange={onSortChange}
          caption="Sort by a column header; export saves the users shown, in this order."
        />
      )}
    </Stack>
  );
}

type UsersPageViewProps = {
  page: UsersPageState;
  onPageChange: (page: UsersPageState) => void;
  isPageLoading: boolean;
  filter: string;
  canManageUsers: boolean;
  links: UsersListLinks;
};

function UsersPageView({
  page,
  onPageChange,
  isPageLoading,
  filter,
  canManageUsers,
  links,
}: UsersPageViewProps) {
  const queryClient = useQueryClient();
  const request = { pageSize: page.pageSize, pageToken: currentPageToken(page) };
  // Not useSuspenseQuery: on a first visit the page arrives after the list's frame is on screen.
  // As a suspended boundary's retry it rendered in a transition's time slices, and each update
  // landing meanwhile (the caller, the participant id) restarted the whole list: 6–9 renders of it
  // before the rows showed (issue 29). A query's update renders this view alone, in one task.
  // Errors still go to the boundary; flips and size changes find the page cached (the loader).
  const { data, isFetching } = useQuery({ ...userQueries.list(request), throwOnError: true });
  const users = useMemo(() => data?.users ?? [], [data]);
  const shown = useMemo(() => filterUsers(users, filter), [users, filter]);
  const nextPageToken = data?.nextPageToken ?? '';

  // The next page is likely wanted: fetch it as soon as this one is on screen, so flipping to it
  // is instant. Not in the task that shows this page: a flip renders it in the click (ADR 030),
  // and a request started there would delay that frame.
  useEffect(() => {
    if (!nextPageToken) return undefined;
    return whenIdle(() => {
      void prefetch(
        queryClient,
        userQueries.list({ pageSize: page.pageSize, pageToken: nextPageToken }),
      );
    }, NEXT_PAGE_PREFETCH_WITHIN_MS);
  }, [queryClient, nextPageToken, page.pageSize]);

  if (data === undefined) return <SectionSkeleton lines={8} />;
  return (
    <TokenPage
      page={page}
      onPageChange={onPageChange}
      rowsNoun="users"
      pagerLabel="Users pages"
      rowCount={users.length}
      matchCount={filter.trim() !== '' ? shown.length : undefined}
      nextPageToken={nextPageToken}
      isRefreshing={isFetching || isPageLoading}
      actions={<ExportButtons users={shown} />}
      empty={
        <EmptyState
          title="No users yet"
          description="There are no users that you may list on this participant."
          action={
            canManageUsers ? (
              <Button component={Link} to={links.newUser}>
                Create user
              </Button>
            ) : undefined
          }
        />
      }
      noMatchText={`No users on this page match “${filter.trim()}”.`}
    >
      <UsersTable
        users={shown}
        userHref={links.user}
        isBusy={isPageLoading}
        caption="Ordered by user id, as the participant returns them."
      />
    </TokenPage>
  );
}

function ExportButtons({ users }: { users: readonly User[] }) {
  const save = (format: UsersExportFormat) => {
    downloadFile({
      fileName: usersExportFileName(format, new Date()),
      content: format === 'csv' ? usersToCsv(users) : usersToJson(users),
      mimeType: USERS_EXPORT_MIME_TYPES[format],
    });
  };
  return (
    <Group gap="xs">
      <Button
        size="xs"
        variant="default"
        disabled={users.length === 0}
        onClick={() => {
          save('csv');
        }}
      >
        Export CSV
      </Button>
      <Button
        size="xs"
        variant="default"
        disabled={users.length === 0}
        onClick={() => {
          save('json');
        }}
      >
        Export JSON
      </Button>
    </Group>
  );
}
