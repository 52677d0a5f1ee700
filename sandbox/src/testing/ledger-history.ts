import { randomBytes, randomUUID } from 'node:crypto';
import type { Command } from '../ledger/interpreter';
import type { SubmitRequest } from '../ledger/ledger';
import {
  formatMicros,
  newUpdateId,
  nowMicros,
  type LedgerNode,
  type TransactionRecord,
} from '../ledger/transaction';
import { beforeEach } from 'vitest';
import { perTest, sandboxPerTest, type TestSandbox } from './test-client';

/**
 * Builds ledger history for the update, state and event tests by submitting straight to the
 * sandbox's ledger, so they do not depend on the command endpoints.
 */

export const IOU = '#sandbox-demo:Demo.Iou:Iou';
export const ACCOUNT = '#sandbox-demo:Demo.Account:Account';
export const FANOUT = '#sandbox-demo:Demo.Fanout:Fanout';
export const HOLDING = '#sandbox-demo:Demo.Holding:Holding';
export const ISSUANCE = '#sandbox-demo:Demo.Iou:IouIssuance';

export async function allocateParty(t: TestSandbox, hint: string): Promise<string> {
  const { json } = await t.post('/v2/parties', { partyIdHint: hint });
  return (json as { partyDetails: { party: string } }).partyDetails.party;
}

type SubmitOptions = Partial<Omit<SubmitRequest, 'commands' | 'actAs'>>;

export function submit(
  t: TestSandbox,
  actAs: string[],
  commands: Command[],
  options: SubmitOptions = {},
): TransactionRecord {
  return t.state.ledger.submit({
    commands,
    userId: 'alice-app',
    actAs,
    readAs: [],
    commandId: `cmd-${randomUUID()}`,
    workflowId: '',
    submissionId: randomUUID(),
    deduplication: { kind: 'default' },
    minLedgerTimeMicros: null,
    disclosed: new Map(),
    synchronizerId: null,
    traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    ...options,
  });
}

export function createCommand(t: TestSandbox, templateId: string, argument: unknown): Command {
  return { kind: 'create', template: t.state.templates.resolve(templateId), argument };
}

export function exerciseCommand(
  t: TestSandbox,
  templateId: string,
  contractId: string,
  choice: string,
  argument: unknown,
): Command {
  return {
    kind: 'exercise',
    template: t.state.templates.resolve(templateId),
    contractId,
    choice,
    argument,
  };
}

/**
 * Commits `nodes` as a transaction without interpreting anything: how tests put contracts of an
 * uploaded package on the ledger, since the sandbox cannot run that package's Daml. It writes
 * what a participant that ran the package would have recorded; streams already open do not
 * hear of it, so read it back with closed ranges or snapshots.
 */
export function recordTransaction(
  t: TestSandbox,
  actAs: string[],
  nodes: LedgerNode[],
): TransactionRecord {
  const time = formatMicros(nowMicros());
  const tx = t.state.transaction(() => {
    const record: TransactionRecord = {
      kind: 'transaction',
      offset: t.state.history.ledgerEnd() + 1,
      updateId: newUpdateId(),
      commandId: `cmd-${randomUUID()}`,
      workflowId: '',
      userId: 'alice-app',
      actAs,
      submissionId: randomUUID(),
      effectiveAt: time,
      recordTime: time,
      synchronizerId: t.state.synchronizerId,
      traceparent: null,
      nodes,
    };
    t.state.history.appendUpdate(record);
    return record;
  });
  t.state.history.committed(tx);
  return tx;
}

/** The contract ids a transaction created, in node order. */
export const createdIds = (tx: TransactionRecord) =>
  tx.nodes.filter((node) => node.kind === 'create').map((node) => node.contractId);

/**
 * A small but realistic history, one update per line:
 *
 * 1–4. Bank, Alice, Bob and Carol are allocated (topology updates).
 * 5. Bank issues Alice an Iou of 100 USD that Carol observes.
 * 6. Alice splits it into 30 and 70.
 * 7. Alice transfers the 30 to Bob.
 * 8. Bank opens an Account for Alice.
 * 9. Bank issues 5 EUR through the Account, a non-consuming choice Alice does not witness.
 * 10. Alice creates a Fanout.
 * 11. Alice runs it with width 2 and depth 2 (a tree of creates and exercises).
 */
export async function seedHistory(t: TestSandbox) {
  const bank = await allocateParty(t, 'Bank');
  const alice = await allocateParty(t, 'Alice');
  const bob = await allocateParty(t, 'Bob');
  const carol = await allocateParty(t, 'Carol');
  const issue = submit(
    t,
    [bank],
    [
      createCommand(t, IOU, {
        issuer: bank,
        owner: alice,
        currency: 'USD',
        amount: '100',
        observers: [carol],
      }),
    ],
    { workflowId: 'issuance', commandId: 'issue-usd' },
  );
  const [iou = ''] = createdIds(issue);
  const split = submit(
    t,
    [alice],
    [exerciseCommand(t, IOU, iou, 'Iou_Split', { splitAmount: '30' })],
  );
  const [split30 = '', rest70 = ''] = createdIds(split);
  const transfer = submit(
    t,
    [alice],
    [exerciseCommand(t, IOU, split30, 'Iou_Transfer', { newOwner: bob })],
  );
  const [bobIou = ''] = createdIds(transfer);
  const open = submit(
    t,
    [bank],
    [createCommand(t, ACCOUNT, { bank, owner: alice, number: 'A-1' })],
  );
  const [account = ''] = createdIds(open);
  const issueEur = submit(
    t,
    [bank],
    [exerciseCommand(t, ACCOUNT, account, 'Account_Issue', { currency: 'EUR', amount: '5' })],
  );
  const [eurIou = ''] = createdIds(issueEur);
  const fanout = submit(t, [alice], [createCommand(t, FANOUT, { owner: alice, label: 'f' })]);
  const [fanoutId = ''] = createdIds(fanout);
  const run = submit(
    t,
    [alice],
    [exerciseCommand(t, FANOUT, fanoutId, 'Fanout_Run', { width: '2', depth: '2' })],
  );
  return {
    bank,
    alice,
    bob,
    carol,
    tx: { issue, split, transfer, open, issueEur, fanout, run },
    cids: { iou, split30, rest70, bobIou, account, eurIou, fanoutId },
  };
}

export type History = Awaited<ReturnType<typeof seedHistory>>;

/** A fresh sandbox holding the {@link seedHistory} history for each test of the calling file. */
export function seededSandboxPerTest(): { t: TestSandbox; h: History } {
  const t = sandboxPerTest();
  let current: History | undefined;
  beforeEach(async () => {
    current = await seedHistory(t);
  });
  return { t, h: perTest(() => current) };
}

/** A wildcard event format for the given parties. */
export const wildcardFormat = (parties: string[], verbose = false) => ({
  filtersByParty: Object.fromEntries(
    parties.map((party) => [
      party,
      {
        cumulative: [
          { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } },
        ],
      },
    ]),
  ),
  verbose,
});

export const transactionsOf = (
  parties: string[],
  shape:
    | 'TRANSACTION_SHAPE_ACS_DELTA'
    | 'TRANSACTION_SHAPE_LEDGER_EFFECTS' = 'TRANSACTION_SHAPE_ACS_DELTA',
) => ({
  includeTransactions: { eventFormat: wildcardFormat(parties), transactionShape: shape },
});
