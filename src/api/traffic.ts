import { queryOptions } from '@tanstack/react-query';
import type { Caller } from '@/lib/access/access-rights';
import { rootActionsOf, type RootAction } from '@/lib/transaction-tree/root-actions';
import { api, unwrap } from './client';
import { listParties } from './parties';
import type { Schemas } from './schema';
import { eventsOfTransaction, type WireTransaction } from './transaction-tree-adapter';
import {
  findOffsetAtTime,
  getLedgerEnd,
  getPrunedOffset,
  readScopeKey,
  updateFormatFor,
  type ReadScope,
} from './updates';
import { listUsers } from './users';

/**
 * What the Traffic page reads: the completions of a window (`/v2/commands/completions`, one user
 * at a time, since that endpoint answers for one user), each with the paid traffic cost the
 * participant reports, joined by offset to its transaction for the template and choice of the
 * command. Every read is bounded: users, parties, completions and the join each have a cap, and
 * the report says which one it hit.
 */

/** The windows the page offers, by how far back from now they reach; `all` = what is retained. */
export const TRAFFIC_WINDOWS = {
  hour: { label: 'Last hour', ms: 3_600_000 },
  day: { label: 'Last 24 hours', ms: 86_400_000 },
  week: { label: 'Last 7 days', ms: 7 * 86_400_000 },
  all: { label: 'Everything retained', ms: null },
} as const;
export type TrafficWindow = keyof typeof TRAFFIC_WINDOWS;

export function isTrafficWindow(value: string | null): value is TrafficWindow {
  return value !== null && Object.hasOwn(TRAFFIC_WINDOWS, value);
}

/** Most completions read in one report, over all users. */
export const MAX_TRAFFIC_COMPLETIONS = 5000;
/** Most users whose completions are read (the endpoint takes one user per request). */
export const MAX_TRAFFIC_USERS = 50;
/** Most local parties a participant-wide reader asks completions for. */
export const MAX_TRAFFIC_PARTIES = 1000;
/** Pages of `/v2/updates` read for the join; each holds up to {@link TRAFFIC_PAGE_LIMIT} updates. */
export const MAX_JOIN_PAGES = 25;
/** The list endpoints' element limit per request (above 200 they answer 413 without one, §10). */
export const TRAFFIC_PAGE_LIMIT = 200;
/**
 * How long a completions list waits for more once it has sent what there is: the stream is open-
 * ended, so a list ends by going idle at the ledger end.
 */
const COMPLETIONS_IDLE_MS = 400;
/** Users read at once. */
const USER_CONCURRENCY = 4;

export type TrafficCompletion = {
  offset: number;
  userId: string;
  actAs: readonly string[];
  commandId: string;
  /** Empty for a command that failed (it made no transaction). */
  updateId: string;
  recordTime: string | undefined;
  /** Null when the participant reports none (no traffic control, or before it started to). */
  paidTrafficCost: number | null;
  succeeded: boolean;
  /** The command's root actions from its transaction; null when the join did not read it. */
  actions: readonly RootAction[] | null;
};

export type TrafficReport = {
  window: TrafficWindow;
  /** Completions at offsets in (`beginExclusive`, `endInclusive`]. */
  beginExclusive: number;
  endInclusive: number;
  /** When the report was read. */
  readAt: string;
  completions: TrafficCompletion[];
  /** Whose completions were read. */
  userIds: readonly string[];
  /** The caps hit: the report is then partial, and the page says so. */
  capped: {
    users: boolean;
    parties: boolean;
    completions: boolean;
    /** Completions whose transactions were not read (beyond the join's pages). */
    join: boolean;
  };
};

/** The users whose completions the caller may read, and whether there were more. */
async function usersToRead(
  caller: Caller,
  canListUsers: boolean,
  limit: number,
  signal?: AbortSignal,
): Promise<{ userIds: string[]; capped: boolean }> {
  const readsAnyUser =
    caller.kind === 'unidentified' ||
    caller.rights.some((right) => right.kind === 'CanReadAsAnyParty');
  // Reading another user's completions needs ReadAsAnyParty (ledger-api-behaviour.md §4.6), and
  // finding them needs the user list; without either, the caller's own commands are what it sees.
  if (caller.kind === 'user' && !(readsAnyUser && canListUsers)) {
    return { userIds: [caller.userId], capped: false };
  }
  const { users, nextPageToken } = await listUsers({ pageSize: limit, pageToken: '' }, signal);
  return {
    userIds: (users ?? []).map((user) => user.id).sort(),
    capped: nextPageToken !== undefined && nextPageToken !== '',
  };
}

/** The parties completions are asked for: the scope's, or every local one for any-party readers. */
async function partiesToRead(
  scope: ReadScope,
  limit: number,
  signal?: AbortSignal,
): Promise<{ parties: string[]; capped: boolean }> {
  if (scope.kind === 'parties') {
    return {
      parties: scope.parties.slice(0, limit),
      capped: scope.parties.length > limit,
    };
  }
  const { partyDetails, nextPageToken } = await listParties(
    { pageSize: limit, pageToken: '', identityProviderId: '', filterParty: '' },
    signal,
  );
  return {
    parties: partyDetails.filter((details) => details.isLocal).map((details) => details.party),
    capped: nextPageToken !== undefined && nextPageToken !== '',
  };
}

type WireCompletion = {
  commandId?: string;
  updateId?: string;
  userId?: string;
  actAs?: string[];
  offset?: number;
  status?: { code?: number };
  synchronizerTime?: { recordTime?: string };
  paidTrafficCost?: number | null;
};

/** A completion list item: a completion, or an offset checkpoint (how far the stream got). */
function readCompletionItem(
  item: unknown,
):
  | { kind: 'completion'; completion: WireCompletion }
  | { kind: 'checkpoint'; offset: number }
  | null {
  const response = (item as { completionResponse?: Record<string, unknown> } | null)
    ?.completionResponse;
  if (!response) return null;
  const completion = (response.Completion as { value?: WireCompletion } | undefined)?.value;
  if (completion && typeof completion.offset === 'number') {
    return { kind: 'completion', completion };
  }
  const checkpoint = (response.OffsetCheckpoint as { value?: { offset?: unknown } } | undefined)
    ?.value;
  if (typeof checkpoint?.offset === 'number')
    return { kind: 'checkpoint', offset: checkpoint.offset };
  return null;
}

const costOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** One user's completions in (`begin`, `end`], at most `budget`; `full` when it stopped at the budget. */
async function readUserCompletions(
  userId: string,
  parties: readonly string[],
  {
    begin,
    end,
    budget,
    pageSize,
  }: { begin: number; end: number; budget: number; pageSize: number },
  signal?: AbortSignal,
): Promise<{ completions: TrafficCompletion[]; full: boolean }> {
  const completions: TrafficCompletion[] = [];
  let after = begin;
  while (after < end) {
    const items = unwrap(
      await api.POST('/v2/commands/completions', {
        params: {
          query: { limit: pageSize, stream_idle_timeout_ms: COMPLETIONS_IDLE_MS },
        },
        body: { userId, parties: [...parties], beginExclusive: after },
        ...(signal ? { signal } : {}),
      }),
    ) as unknown[];
    let reached = after;
    for (const item of items) {
      const read = readCompletionItem(item);
      if (!read) continue;
      const offset = read.kind === 'checkpoint' ? read.offset : (read.completion.offset ?? 0);
      if (offset > end) return { completions, full: false };
      reached = Math.max(reached, offset);
      if (read.kind === 'checkpoint') continue;
      if (completions.length >= budget) return { completions, full: true };
      const { completion } = read;
      completions.push({
        offset,
        userId: completion.userId ?? userId,
        actAs: completion.actAs ?? [],
        commandId: completion.commandId ?? '',
        updateId: completion.updateId ?? '',
        recordTime: completion.synchronizerTime?.recordTime,
        paidTrafficCost: costOf(completion.paidTrafficCost),
        succeeded: (completion.status?.code ?? 0) === 0,
        actions: null,
      });
    }
    // A short list went idle at the ledger end; a full one is read on from where it stopped.
    if (items.length < pageSize || reached === after) break;
    after = reached;
  }
  return { completions, full: false };
}

/**
 * The root actions of the transactions at the given offsets, from `/v2/updates` over the range
 * they span, at most {@link MAX_JOIN_PAGES} pages; `complete` is false when offsets were left.
 */
async function readRootActions(
  offsets: readonly number[],
  scope: ReadScope,
  { joinPages, pageSize }: Pick<TrafficLimits, 'joinPages' | 'pageSize'>,
  signal?: AbortSignal,
): Promise<{ actions: Map<number, RootAction[]>; complete: boolean }> {
  const wanted = new Set(offsets);
  const actions = new Map<number, RootAction[]>();
  if (wanted.size === 0) return { actions, complete: true };
  const end = Math.max(...wanted);
  let after = Math.min(...wanted) - 1;
  const updateFormat = updateFormatFor(scope, { verbose: false });
  for (let page = 0; after < end; page++) {
    if (page >= joinPages) return { actions, complete: false };
    const items = unwrap(
      await api.POST('/v2/updates', {
        params: { query: { limit: pageSize } },
        body: {
          beginExclusive: after,
          endInclusive: end,
          updateFormat,
        } satisfies Schemas['GetUpdatesRequest'],
        ...(signal ? { signal } : {}),
      }),
    );
    let last = after;
    for (const item of items) {
      const transaction = (item.update as { Transaction?: { value: WireTransaction } }).Transaction
        ?.value;
      if (!transaction) continue;
      last = Math.max(last, transaction.offset);
      if (wanted.has(transaction.offset)) {
        actions.set(transaction.offset, rootActionsOf(eventsOfTransaction(transaction)));
      }
    }
    if (items.length < pageSize || last === after) break;
    after = last;
  }
  return { actions, complete: true };
}

/** The bounds of one report; the page uses {@link DEFAULT_TRAFFIC_LIMITS}, tests smaller ones. */
export type TrafficLimits = {
  users: number;
  parties: number;
  completions: number;
  joinPages: number;
  pageSize: number;
};

export const DEFAULT_TRAFFIC_LIMITS: TrafficLimits = {
  users: MAX_TRAFFIC_USERS,
  parties: MAX_TRAFFIC_PARTIES,
  completions: MAX_TRAFFIC_COMPLETIONS,
  joinPages: MAX_JOIN_PAGES,
  pageSize: TRAFFIC_PAGE_LIMIT,
};

/** Runs `work` over `items`, `limit` at a time, results in the items' order. */
async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += limit) {
    results.push(...(await Promise.all(items.slice(start, start + limit).map(work))));
  }
  return results;
}

export type TrafficRequest = {
  window: TrafficWindow;
  scope: ReadScope;
  caller: Caller;
  /** Whether the caller may list users (the Users page's right). */
  canListUsers: boolean;
  /** Now, for the window's start; injectable for tests. */
  now?: Date;
  limits?: TrafficLimits;
};

/** The completions of the window with their costs and commands: the Traffic page's one read. */
export async function readTrafficReport(
  {
    window,
    scope,
    caller,
    canListUsers,
    now = new Date(),
    limits = DEFAULT_TRAFFIC_LIMITS,
  }: TrafficRequest,
  signal?: AbortSignal,
): Promise<TrafficReport> {
  const reach = TRAFFIC_WINDOWS[window].ms;
  const [end, begin, users, parties] = await Promise.all([
    getLedgerEnd(signal),
    reach === null
      ? getPrunedOffset(signal).catch(() => 0)
      : findOffsetAtTime(scope, new Date(now.getTime() - reach).toISOString(), signal).then(
          (found) => found.beginExclusive,
        ),
    usersToRead(caller, canListUsers, limits.users, signal),
    partiesToRead(scope, limits.parties, signal),
  ]);
  const report: TrafficReport = {
    window,
    beginExclusive: begin,
    endInclusive: end,
    readAt: now.toISOString(),
    completions: [],
    userIds: users.userIds,
    capped: { users: users.capped, parties: parties.capped, completions: false, join: false },
  };
  if (parties.parties.length === 0 || begin >= end) return report;
  // Each user may use the whole budget; the merged list is cut to it afterwards.
  const perUser = await inBatches(users.userIds, USER_CONCURRENCY, (userId) =>
    readUserCompletions(
      userId,
      parties.parties,
      { begin, end, budget: limits.completions, pageSize: limits.pageSize },
      signal,
    ),
  );
  const merged = perUser.flatMap((read) => read.completions).sort((a, b) => a.offset - b.offset);
  report.capped.completions =
    perUser.some((read) => read.full) || merged.length > limits.completions;
  // Read forwards from the window's start: a capped report covers its first completions.
  const kept = merged.slice(0, limits.completions);
  const { actions, complete } = await readRootActions(
    kept.filter((completion) => completion.succeeded).map((completion) => completion.offset),
    scope,
    limits,
    signal,
  );
  report.capped.join = !complete;
  report.completions = kept.map((completion) => ({
    ...completion,
    actions: actions.get(completion.offset) ?? null,
  }));
  return report;
}

export const trafficQueries = {
  all: () => ['traffic'] as const,
  /** Read when asked (the page's Refresh reads again); a window's report is not shared. */
  report: ({ window, scope, caller, canListUsers }: Omit<TrafficRequest, 'now' | 'limits'>) =>
    queryOptions({
      // The caller in full: its rights decide whose completions are read.
      queryKey: [...trafficQueries.all(), window, canListUsers, caller, ...readScopeKey(scope)],
      queryFn: ({ signal }) => readTrafficReport({ window, scope, caller, canListUsers }, signal),
      staleTime: 60_000,
    }),
};
