import type { WireTransaction } from '../../sandbox/src/scenarios/ledger-steps';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/**
 * Transactions on the in-process sandbox's demo package (sandbox/src/ledger/demo-package.ts),
 * submitted as a client would, for the transaction viewer's tests: the scenario steps'
 * (sandbox/src/scenarios) on the sandbox under test.
 */

export type SeededIouSplit = Awaited<ReturnType<typeof seedIouSplit>>;

/** An Iou of 100 issued by a new bank to a new owner, then split 30/70 by the owner. */
export function seedIouSplit(sandbox: Sandbox) {
  return sandboxSteps(sandbox).iouSplit();
}

/** `CreateAndExercise Fanout … Fanout_Run { width, depth }` for a new party. */
export function seedFanout(
  sandbox: Sandbox,
  shape: { width: number; depth: number },
): Promise<WireTransaction> {
  return sandboxSteps(sandbox).fanout(shape);
}
