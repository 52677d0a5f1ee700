import { sandboxJson } from './seed-parties';
import type { Sandbox } from './sandbox-network';

/**
 * Transactions on the in-process sandbox's demo package (sandbox/src/ledger/demo-package.ts),
 * submitted as a client would, for the transaction viewer's tests.
 */

export const IOU_TEMPLATE = '#sandbox-demo:Demo.Iou:Iou';
export const FANOUT_TEMPLATE = '#sandbox-demo:Demo.Fanout:Fanout';

type WireEvent = {
  CreatedEvent?: { contractId: string; nodeId: number };
  ExercisedEvent?: { contractId: string; nodeId: number };
};
type WireTransaction = { updateId: string; offset: number; events: WireEvent[] };

/** Submits `commands` as `actAs` and returns the transaction in the LEDGER_EFFECTS shape. */
export async function submitCommands(
  sandbox: Sandbox,
  commands: unknown[],
  actAs: string[],
): Promise<WireTransaction> {
  const { transaction } = await sandboxJson<{ transaction: WireTransaction }>(
    sandbox,
    'POST',
    '/v2/commands/submit-and-wait-for-transaction',
    {
      commands: {
        commands,
        commandId: `seed-${crypto.randomUUID()}`,
        actAs,
        userId: 'participant_admin',
      },
      transactionFormat: {
        eventFormat: {
          filtersByParty: Object.fromEntries(actAs.map((party) => [party, {}])),
          verbose: true,
        },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    },
  );
  return transaction;
}

const createdIds = (transaction: WireTransaction) =>
  transaction.events.flatMap((event) =>
    event.CreatedEvent ? [event.CreatedEvent.contractId] : [],
  );

export type SeededIouSplit = {
  issuer: string;
  owner: string;
  /** The Iou that was split (created by `create`, archived by `split`). */
  iouId: string;
  create: WireTransaction;
  /** Exercise Iou_Split (node 0) with its two creates (nodes 1 and 2). */
  split: WireTransaction;
  splitIds: [string, string];
};

/** An Iou of 100 issued by a new bank to a new owner, then split 30/70 by the owner. */
export async function seedIouSplit(sandbox: Sandbox): Promise<SeededIouSplit> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const [issuer = '', owner = ''] = await Promise.all(
    [`bank-${suffix}`, `owner-${suffix}`].map(async (hint) => {
      const { partyDetails } = await sandboxJson<{ partyDetails: { party: string } }>(
        sandbox,
        'POST',
        '/v2/parties',
        { partyIdHint: hint },
      );
      return partyDetails.party;
    }),
  );
  const create = await submitCommands(
    sandbox,
    [
      {
        CreateCommand: {
          templateId: IOU_TEMPLATE,
          createArguments: { issuer, owner, currency: 'USD', amount: '100.0', observers: [] },
        },
      },
    ],
    [issuer],
  );
  const [iouId = ''] = createdIds(create);
  const split = await submitCommands(
    sandbox,
    [
      {
        ExerciseCommand: {
          templateId: IOU_TEMPLATE,
          contractId: iouId,
          choice: 'Iou_Split',
          choiceArgument: { splitAmount: '30.0' },
        },
      },
    ],
    [owner],
  );
  const [first = '', second = ''] = createdIds(split);
  return { issuer, owner, iouId, create, split, splitIds: [first, second] };
}

/** `CreateAndExercise Fanout … Fanout_Run { width, depth }` for a new party. */
export async function seedFanout(
  sandbox: Sandbox,
  { width, depth }: { width: number; depth: number },
): Promise<WireTransaction> {
  const { partyDetails } = await sandboxJson<{ partyDetails: { party: string } }>(
    sandbox,
    'POST',
    '/v2/parties',
    { partyIdHint: `fanout-${crypto.randomUUID().slice(0, 8)}` },
  );
  const owner = partyDetails.party;
  return submitCommands(
    sandbox,
    [
      {
        CreateAndExerciseCommand: {
          templateId: FANOUT_TEMPLATE,
          createArguments: { owner, label: 'root' },
          choice: 'Fanout_Run',
          choiceArgument: { width: String(width), depth: String(depth) },
        },
      },
    ],
    [owner],
  );
}
