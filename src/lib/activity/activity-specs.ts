import type { ActivityMeta } from './activity-log';

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
