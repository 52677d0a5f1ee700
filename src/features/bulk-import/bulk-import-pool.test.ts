import { describe, expect, it } from 'vitest';
import { runPool } from './bulk-import-pool';

/** A task whose completion the test controls, to observe what runs at the same time. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('runPool', () => {
  it('runs every item, never more than `concurrency` at once, starting in order', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const summary = await runPool(
      Array.from({ length: 23 }, (_, index) => index),
      async (item) => {
        started.push(item);
        running += 1;
        peak = Math.max(peak, running);
        await tick();
        running -= 1;
      },
      { concurrency: 4 },
    );
    expect(summary).toEqual({ started: 23, stoppedEarly: false });
    expect(peak).toBe(4);
    expect(started).toEqual(Array.from({ length: 23 }, (_, index) => index));
  });

  it('on cancel starts nothing more, and resolves once the started tasks have finished', async () => {
    const gates = Array.from({ length: 10 }, deferred);
    const finished: number[] = [];
    let cancelled = false;
    const pool = runPool(
      gates,
      async (gate, index) => {
        await gate.promise;
        finished.push(index);
      },
      { concurrency: 3, isCancelled: () => cancelled },
    );
    await tick();
    cancelled = true;
    gates.forEach((gate) => {
      gate.resolve();
    });
    expect(await pool).toEqual({ started: 3, stoppedEarly: true });
    expect(finished.sort()).toEqual([0, 1, 2]);
  });

  it('stops starting after a task rejects, lets the others finish, then rejects with it', async () => {
    const finished: number[] = [];
    const pool = runPool(
      [0, 1, 2, 3, 4, 5],
      async (item) => {
        await tick();
        if (item === 1) throw new Error('boom');
        await tick();
        finished.push(item);
      },
      { concurrency: 2 },
    );
    await expect(pool).rejects.toThrow('boom');
    expect(finished).toEqual([0]);
  });

  it('handles no items, and refuses a concurrency below 1', async () => {
    expect(await runPool([], () => Promise.resolve(), { concurrency: 4 })).toEqual({
      started: 0,
      stoppedEarly: false,
    });
    await expect(runPool([1], () => Promise.resolve(), { concurrency: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});
