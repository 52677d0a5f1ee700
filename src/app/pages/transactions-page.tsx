import { Stack } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { OpenUpdateSection } from '@/features/transactions/open-update-section';
import { RecentUpdates } from '@/features/transactions/recent-updates';
import type { TransactionPane } from '@/features/transactions/transaction-view';
import { TransactionViewer } from '@/features/transactions/transaction-viewer';
import { paths } from '@/app/paths';
import classes from './transactions-page.module.css';

const transactionLinks = { node: paths.transactions.to };
const recentLinks = { update: (updateId: string) => paths.transactions.to(updateId) };

const wholeNumber = (value: string | null) =>
  value !== null && /^\d+$/.test(value) ? Number(value) : undefined;

/** `view=graph` keeps a phone on the graph tab across reloads and shared links. */
const VIEW_PARAM = 'view';
/** `fullscreen=1`: the transaction over the whole window, likewise. */
const FULL_SCREEN_PARAM = 'fullscreen';
/** `compare=NAME`: the transaction beside NAME's projection of it (issue 28). */
const COMPARE_PARAM = 'compare';
const compareLinks = {
  update: (updateId: string) => paths.transactions.to(updateId),
  signIn: (from: string) => paths.signIn.to(from),
};

/**
 * The query of `path` (a paths.transactions link) with the pane added when it is the graph, and
 * full screen when it is.
 */
function withView(path: string, pane: TransactionPane, isFullScreen: boolean): URLSearchParams {
  const params = new URLSearchParams(path.split('?')[1]);
  if (pane === 'graph') params.set(VIEW_PARAM, 'graph');
  if (isFullScreen) params.set(FULL_SCREEN_PARAM, '1');
  return params;
}

/**
 * `?update=<id>&node=<n>` opens a transaction with a node selected; `?offset=<o>&node=<n>` the one
 * at that offset (a contract's events link so), replaced by its `update` link once found; without
 * either, the recent list. `&view=graph` shows the graph rather than the outline on narrow screens,
 * `&fullscreen=1` the transaction over the whole window.
 */
export function TransactionsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const updateId = searchParams.get('update') ?? undefined;
  const offset = updateId ? undefined : wholeNumber(searchParams.get('offset'));
  const selectedNodeId = wholeNumber(searchParams.get('node'));
  const updateRef = updateId ? { updateId } : offset !== undefined ? { offset } : undefined;
  const pane: TransactionPane = searchParams.get(VIEW_PARAM) === 'graph' ? 'graph' : 'outline';
  const isFullScreen = searchParams.get(FULL_SCREEN_PARAM) === '1';
  const compareWith = searchParams.get(COMPARE_PARAM) ?? undefined;

  const handleResolveOffset = useCallback(
    (resolvedId: string) => {
      const next = withView(paths.transactions.to(resolvedId, selectedNodeId), pane, isFullScreen);
      setSearchParams(next, { replace: true });
    },
    [selectedNodeId, pane, isFullScreen, setSearchParams],
  );

  const handleSelectNode = useCallback(
    (nodeId: number | undefined) => {
      if (!updateId) return;
      const next = withView(paths.transactions.to(updateId, nodeId), pane, isFullScreen);
      // Selecting is not navigating: Back leaves the transaction rather than stepping through nodes.
      setSearchParams(next, { replace: true });
    },
    [updateId, pane, isFullScreen, setSearchParams],
  );

  const setParam = useCallback(
    (name: string, value: string | undefined) => {
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (value === undefined) params.delete(name);
          else params.set(name, value);
          return params;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );
  const handlePaneChange = useCallback(
    (next: TransactionPane) => {
      setParam(VIEW_PARAM, next === 'graph' ? 'graph' : undefined);
    },
    [setParam],
  );
  const handleFullScreenChange = useCallback(
    (next: boolean) => {
      setParam(FULL_SCREEN_PARAM, next ? '1' : undefined);
    },
    [setParam],
  );
  const compare = useMemo(
    () => ({
      with: compareWith,
      onChange: (name: string | undefined) => {
        setParam(COMPARE_PARAM, name);
      },
      links: compareLinks,
    }),
    [compareWith, setParam],
  );

  const openUpdate = (
    <QueryBoundary fallback={<SectionSkeleton lines={1} />}>
      <OpenUpdateSection
        onOpen={(id) => {
          void navigate(paths.transactions.to(id));
        }}
      />
    </QueryBoundary>
  );

  return (
    // An opened transaction is the page's hero: on wide screens the page is exactly as tall as
    // the window, and the viewer fills what the header leaves.
    <Stack gap={updateRef ? 0 : 'lg'} className={updateRef ? classes.hero : undefined}>
      <PageHeader
        title="Transactions"
        description={
          updateRef ? undefined : 'Open a transaction by update id or offset and explore its tree.'
        }
        actions={openUpdate}
      />
      {updateRef ? (
        <QueryBoundary
          fallback={<SectionSkeleton lines={10} />}
          notFound={{
            what: updateId === undefined ? 'update at offset' : 'update',
            id: updateId ?? String(offset),
            back: { to: paths.transactions.to(), label: 'recent transactions' },
            // The participant cannot tell "none" from "not yours to see" (ledger-api-behaviour.md).
            detail:
              updateId === undefined
                ? 'No update at this offset is visible to you: it may hold only other parties’ events, or lie beyond the ledger end.'
                : 'No update with this id is visible to you: it may not exist, or hold only other parties’ events.',
          }}
        >
          <TransactionViewer
            key={updateId ?? `offset-${String(offset)}`}
            updateRef={updateRef}
            selectedNodeId={selectedNodeId}
            onSelectNode={handleSelectNode}
            onResolveOffset={handleResolveOffset}
            links={transactionLinks}
            pane={pane}
            onPaneChange={handlePaneChange}
            isFullScreen={isFullScreen}
            onFullScreenChange={handleFullScreenChange}
            compare={compare}
          />
        </QueryBoundary>
      ) : (
        <SectionCard title="Recent transactions">
          <QueryBoundary fallback={<SectionSkeleton lines={6} />}>
            <RecentUpdates links={recentLinks} />
          </QueryBoundary>
        </SectionCard>
      )}
    </Stack>
  );
}
