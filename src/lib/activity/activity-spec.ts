/**
 * How an admin mutation describes itself to the activity log, and the specs by mutation key. The
 * API modules declare one spec per mutation, so this part is in the app's first chunk with them;
 * the log itself (bounds, storage, labels) loads with the first recorded change or the first page
 * that shows entries.
 */
import type { AuditAction } from '@ledger-console/edge/console-api';

/**
 * The shared log's actions that this browser records as well, with the state before and after;
 * the rest (commands, external parties, calls no action names) only the server's log has.
 */
export const NOT_RECORDED_IN_THE_BROWSER = [
  'party.external.allocate',
  'command.submit',
  'command.prepare',
  'command.execute',
  'command.reassign',
  'other',
] as const;
export type ActivityAction = Exclude<AuditAction, (typeof NOT_RECORDED_IN_THE_BROWSER)[number]>;

/** What an entry concerns, so the user's and the party's pages can show their own entries. */
export type ActivitySubject =
  | { kind: 'user'; userId: string; identityProviderId: string }
  | { kind: 'party'; party: string }
  | { kind: 'identity-provider'; identityProviderId: string }
  | { kind: 'package'; packageId: string };

/** Who made the call, as the console knew it when the call started. */
export type ActivityActor =
  | { kind: 'user'; userId: string; identityProviderId: string }
  /** A token the participant maps to no user (privileged, or no user service): its claims. */
  | { kind: 'token'; subject: string | null; issuer: string | null }
  | { kind: 'anonymous' };

/** The HTTP call: method and path (with query), never a body or a header. */
export type ActivityCall = { method: string; path: string };

/** What a spec says about one side of the change, before it is bounded into a snapshot. */
export type ActivityValue =
  { kind: 'value'; value: unknown } | { kind: 'none' } | { kind: 'unknown'; reason: string };

/** Reads the query cache without fetching: what the console had loaded, unless known stale. */
export type CacheReader = (queryKey: readonly unknown[]) => unknown;

/**
 * How one kind of mutation is logged. `before` runs as the call starts (the cache still holds
 * the old state), `after` only on success.
 */
export type ActivitySpec<TVariables, TData> = {
  action: ActivityAction;
  call: (variables: TVariables) => ActivityCall;
  subjects: (variables: TVariables, data: TData | undefined) => ActivitySubject[];
  before: (variables: TVariables, read: CacheReader) => ActivityValue;
  after: (variables: TVariables, data: TData) => ActivityValue;
};

/** A spec with its types erased, as mutation `meta` carries it. */
export type ActivityMeta = {
  readonly action: ActivityAction;
  readonly call: (variables: unknown) => ActivityCall;
  readonly subjects: (variables: unknown, data: unknown) => ActivitySubject[];
  readonly before: (variables: unknown, read: CacheReader) => ActivityValue;
  readonly after: (variables: unknown, data: unknown) => ActivityValue;
};

/** Erases a spec's types for `meta`; the recorder passes each function the mutation's own values. */
export function activityMeta<TVariables, TData>(
  spec: ActivitySpec<TVariables, TData>,
): ActivityMeta {
  return spec as unknown as ActivityMeta;
}

export const valueOf = (value: unknown): ActivityValue => ({ kind: 'value', value });
export const NOTHING: ActivityValue = { kind: 'none' };
export const NOT_LOADED: ActivityValue = {
  kind: 'unknown',
  reason: 'not loaded in this console before the call, or out of date',
};

/** A cached value as the "before" of a change, or {@link NOT_LOADED} when the cache has none. */
export function cachedBefore(read: CacheReader, queryKey: readonly unknown[]): ActivityValue {
  const cached = read(queryKey);
  return cached === undefined || cached === null ? NOT_LOADED : valueOf(cached);
}

// ── the specs by mutation key ────────────────────────────────────────────────

type MutationFactory = () => {
  mutationKey?: readonly unknown[];
  meta?: { activity?: ActivityMeta };
};

/**
 * Each admin mutation's activity spec by its mutation key. A screen may replace a factory's `meta`
 * (to invalidate more, say) and so drop its spec; the key survives such a spread, so the recorder
 * looks it up here. The API modules register their factories as they load — always before one of
 * their mutations can run — so the app's first chunk need not import every API module to know them.
 */
const specsByKey = new Map<string, ActivityMeta>();

/** Mutation keys are arrays of strings and plain values: JSON is a stable enough hash for them. */
function keyOf(mutationKey: readonly unknown[]): string {
  return JSON.stringify(mutationKey);
}

export function registerActivitySpecs(factories: Readonly<Record<string, MutationFactory>>): void {
  for (const factory of Object.values(factories)) {
    const { mutationKey, meta } = factory();
    if (mutationKey && meta?.activity) specsByKey.set(keyOf(mutationKey), meta.activity);
  }
}

export function activitySpecByKey(mutationKey: readonly unknown[]): ActivityMeta | undefined {
  return specsByKey.get(keyOf(mutationKey));
}
