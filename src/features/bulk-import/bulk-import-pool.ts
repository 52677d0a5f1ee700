/**
 * A small promise pool: runs `task` for each item with at most `concurrency` at a time, in the
 * items' order. Cancelling stops it from starting more; those already started finish, and the
 * pool resolves once they have. Tasks report their own outcome: a task that rejects stops the
 * pool as a cancel would, and the pool rejects with that error after the others finish.
 */

export type PoolOptions = {
  concurrency: number;
  /** Asked before each start; true stops the pool from starting more. */
  isCancelled?: () => boolean;
};

export type PoolSummary = {
  /** How many tasks were started (and so have finished). */
  started: number;
  /** Whether it stopped before starting every item. */
  stoppedEarly: boolean;
};

export async function runPool<T>(
  items: readonly T[],
  task: (item: T, index: number) => Promise<void>,
  { concurrency, isCancelled = () => false }: PoolOptions,
): Promise<PoolSummary> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, not ${String(concurrency)}`);
  }
  let next = 0;
  let failure: { error: unknown } | undefined;

  const lane = async () => {
    while (next < items.length && failure === undefined && !isCancelled()) {
      const index = next;
      next += 1;
      try {
        await task(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };

  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, lane);
  await Promise.all(lanes);
  if (failure) throw failure.error;
  return { started: next, stoppedEarly: next < items.length };
}
