import { randomUUID } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import {
  decodePreparedTransaction,
  hashPreparedTransaction,
} from '@canton-network/core-tx-visualizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardExternalParty, signHash, type ExternalParty } from '../testing/external-party';
import {
  canExecuteAs,
  canReadAs,
  createTestSandbox,
  expectError,
  type TestSandbox,
} from '../testing/test-client';
import { TEST_SECRET, hs256Token } from '../testing/tokens';
import { iou, create, exercise } from '../testing/json-commands';
import { IOU, ISSUANCE, HOLDING, ACCOUNT, FANOUT } from '../testing/ledger-history';

const LOCAL_CONTRACT_ID = /^00[0-9a-f]{64}$/;

let t: TestSandbox;
/** The external issuer and owner of most contracts here. */
let ext: ExternalParty;
/** A second external party. */
let ext2: ExternalParty;
/** A local party: the participant signs for it, it has no key. */
let alice = '';
/** How many prepared transactions were checked against the reference hasher and decoder. */
let checkedAgainstReference = 0;

type Prepared = {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
  hashingDetails?: string;
  costEstimation?: Record<string, unknown>;
  decoded: PreparedTransaction;
};

/**
 * Prepares and checks the answer against the Canton team's own decoder and V2 hasher: every
 * prepared transaction of these tests goes through here.
 */
async function prepare(
  commands: unknown[],
  actAs: string[],
  extra: Record<string, unknown> = {},
): Promise<Prepared> {
  const response = await t.post('/v2/interactive-submission/prepare', {
    commands,
    commandId: `prep-${randomUUID()}`,
    actAs,
    userId: 'participant_admin',
    ...extra,
  });
  expect(response.status, response.text).toBe(200);
  const json = response.json as Omit<Prepared, 'decoded'>;
  const decoded = decodePreparedTransaction(json.preparedTransaction);
  expect(PreparedTransaction.toBinary(decoded)).toEqual(
    new Uint8Array(Buffer.from(json.preparedTransaction, 'base64')),
  );
  expect(json.preparedTransactionHash).toBe(await hashPreparedTransaction(decoded));
  checkedAgainstReference++;
  return { ...json, decoded };
}

const executeBody = (
  prepared: Pick<Prepared, 'preparedTransaction' | 'preparedTransactionHash'>,
  signers: ExternalParty[],
  extra: Record<string, unknown> = {},
) => ({
  preparedTransaction: prepared.preparedTransaction,
  partySignatures: {
    signatures: signers.map((signer) => ({
      party: signer.party,
      signatures: [signHash(signer, prepared.preparedTransactionHash)],
    })),
  },
  submissionId: randomUUID(),
  userId: 'participant_admin',
  hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
  deduplicationPeriod: { Empty: {} },
  ...extra,
});

async function executeAndWait(prepared: Prepared, signers: ExternalParty[]) {
  const response = await t.post(
    '/v2/interactive-submission/executeAndWait',
    executeBody(prepared, signers),
  );
  expect(response.status, response.text).toBe(200);
  return response.json as { updateId: string; completionOffset: number };
}

/** Prepares and executes as `signer`, answering the committed transaction's ledger effects. */
async function run(
  commands: unknown[],
  signer: ExternalParty,
  extra: Record<string, unknown> = {},
) {
  const prepared = await prepare(commands, [signer.party], extra);
  const response = await t.post('/v2/interactive-submission/executeAndWaitForTransaction', {
    ...executeBody(prepared, [signer]),
    transactionFormat: {
      eventFormat: { filtersByParty: { [signer.party]: { cumulative: [] } }, verbose: true },
      transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    },
  });
  expect(response.status, response.text).toBe(200);
  return { prepared, transaction: response.json.transaction as Record<string, any> };
}

const createdIn = (transaction: Record<string, any>) =>
  (transaction.events as any[])
    .filter((event) => event.CreatedEvent)
    .map((event) => event.CreatedEvent.contractId as string);

async function createIou(owner = ext, issuer = ext, amount = '100') {
  const { transaction } = await run([create(IOU, iou(issuer.party, owner.party, amount))], issuer);
  const [cid] = createdIn(transaction);
  return cid ?? '';
}

/** Re-encodes a prepared transaction after `change`, with the reference hasher's hash. */
async function changed(prepared: Prepared, change: (tx: PreparedTransaction) => void) {
  const copy = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(prepared.decoded));
  change(copy);
  const preparedTransaction = Buffer.from(PreparedTransaction.toBinary(copy)).toString('base64');
  return { preparedTransaction, preparedTransactionHash: await hashPreparedTransaction(copy) };
}

const nodeTypes = (decoded: PreparedTransaction) =>
  (decoded.transaction?.nodes ?? []).map((node) =>
    node.versionedNode.oneofKind === 'v1' ? node.versionedNode.v1.nodeType : undefined,
  );

beforeAll(async () => {
  t = createTestSandbox();
  ext = await onboardExternalParty(t, 'ext');
  ext2 = await onboardExternalParty(t, 'ext2');
  const allocated = await t.post('/v2/parties', { partyIdHint: 'alice' });
  alice = allocated.json.partyDetails.party as string;
});

afterAll(() => {
  t.close();
  // Every prepared transaction the tests made was checked against the reference.
  expect(checkedAgainstReference).toBeGreaterThanOrEqual(20);
});

describe('prepare', () => {
  it('answers a create as a PreparedTransaction and commits nothing', async () => {
    const before = t.state.history.ledgerEnd();
    const prepared = await prepare([create(IOU, iou(ext.party, ext2.party, '12.5'))], [ext.party]);
    expect(t.state.history.ledgerEnd()).toBe(before);
    expect(prepared.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
    expect(Buffer.from(prepared.preparedTransactionHash, 'base64')).toHaveLength(32);
    expect(prepared.hashingDetails).toBeUndefined();
    const { transaction, metadata } = prepared.decoded;
    expect(transaction?.version).toBe('2.1');
    expect(transaction?.roots).toEqual(['0']);
    expect(transaction?.nodeSeeds.map((seed) => [seed.nodeId, seed.seed.length])).toEqual([
      [0, 32],
    ]);
    const [node] = nodeTypes(prepared.decoded);
    expect(node?.oneofKind).toBe('create');
    const created = node?.oneofKind === 'create' ? node.create : undefined;
    expect(created?.contractId).toMatch(LOCAL_CONTRACT_ID);
    expect(created).toMatchObject({
      lfVersion: '2.1',
      packageName: 'sandbox-demo',
      templateId: { packageId: t.state.demoPackageId, moduleName: 'Demo.Iou', entityName: 'Iou' },
      signatories: [ext.party],
      stakeholders: [ext.party, ext2.party].sort(),
    });
    // Values are enriched: record id and labels, numeric at its scale, list of parties.
    expect(created?.argument?.sum).toEqual({
      oneofKind: 'record',
      record: {
        recordId: { packageId: t.state.demoPackageId, moduleName: 'Demo.Iou', entityName: 'Iou' },
        fields: [
          { label: 'issuer', value: { sum: { oneofKind: 'party', party: ext.party } } },
          { label: 'owner', value: { sum: { oneofKind: 'party', party: ext2.party } } },
          { label: 'currency', value: { sum: { oneofKind: 'text', text: 'USD' } } },
          { label: 'amount', value: { sum: { oneofKind: 'numeric', numeric: '12.5000000000' } } },
          { label: 'observers', value: { sum: { oneofKind: 'list', list: { elements: [] } } } },
        ],
      },
    });
    expect(metadata).toMatchObject({
      submitterInfo: { actAs: [ext.party] },
      synchronizerId: t.state.synchronizerId,
      mediatorGroup: 0,
      inputContracts: [],
      globalKeyMapping: [],
    });
    expect(metadata?.submitterInfo?.commandId).toMatch(/^prep-/);
    expect(metadata?.transactionUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(metadata?.minLedgerEffectiveTime).toBeUndefined();
    expect(metadata?.maxLedgerEffectiveTime).toBeUndefined();
    const preparedAt = Number((metadata?.preparationTime ?? 0n) / 1000n);
    expect(Math.abs(preparedAt - Date.now())).toBeLessThan(60_000);
  });

  it('estimates no traffic cost: the participant has no traffic control (traffic-cost-routes.test.ts has it on)', async () => {
    const estimated = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party]);
    expect(estimated.costEstimation).toBeUndefined();
  });

  it('explains the hashing with verboseHashing', async () => {
    const prepared = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party], {
      verboseHashing: true,
    });
    const details = prepared.hashingDetails ?? '';
    expect(details).toContain('00000030 - hash purpose');
    expect(details).toContain('# Create 00');
    expect(details).toContain('02 - hashing scheme version');
  });

  it('prepares exercises with children, fetches, keys, interfaces and disclosed inputs', async () => {
    // An exercise creating two contracts: the input contract and the result's ids.
    const cid = await createIou();
    const split = await prepare(
      [exercise(IOU, cid, 'Iou_Split', { splitAmount: '30' })],
      [ext.party],
    );
    const [root, first, second] = nodeTypes(split.decoded);
    expect(root?.oneofKind).toBe('exercise');
    const splitNode = root?.oneofKind === 'exercise' ? root.exercise : undefined;
    expect(splitNode).toMatchObject({
      contractId: cid,
      choiceId: 'Iou_Split',
      consuming: true,
      children: ['1', '2'],
      signatories: [ext.party],
      stakeholders: [ext.party],
      actingParties: [ext.party],
      choiceObservers: [],
    });
    const ids = [first, second].map((n) => (n?.oneofKind === 'create' ? n.create.contractId : ''));
    expect(splitNode?.exerciseResult?.sum).toMatchObject({
      oneofKind: 'record',
      record: {
        fields: [
          { label: 'splitCid', value: { sum: { oneofKind: 'contractId', contractId: ids[0] } } },
          { label: 'restCid', value: { sum: { oneofKind: 'contractId', contractId: ids[1] } } },
        ],
      },
    });
    const [input] = split.decoded.metadata?.inputContracts ?? [];
    expect(input?.contract.oneofKind === 'v1' && input.contract.v1.contractId).toBe(cid);
    expect(input?.createdAt).toBeGreaterThan(0n);
    expect(input?.eventBlob.length).toBeGreaterThan(0);

    // Iou_Merge fetches the other Iou (a fetch node) and archives it (a nested exercise).
    const other = await createIou(ext, ext, '5');
    const merge = await prepare(
      [exercise(IOU, cid, 'Iou_Merge', { otherCid: other })],
      [ext.party],
    );
    expect(nodeTypes(merge.decoded).map((n) => n?.oneofKind)).toEqual([
      'exercise',
      'fetch',
      'exercise',
      'create',
    ]);
    const fetched = nodeTypes(merge.decoded)[1];
    expect(fetched?.oneofKind === 'fetch' && fetched.fetch).toMatchObject({
      contractId: other,
      actingParties: [ext.party],
      signatories: [ext.party],
    });
    expect(merge.decoded.metadata?.inputContracts).toHaveLength(2);

    // Through an interface: the node names both the template and the interface.
    const transfer = await prepare(
      [exercise(HOLDING, cid, 'Holding_Transfer', { newOwner: ext2.party })],
      [ext.party],
    );
    const [holding] = nodeTypes(transfer.decoded);
    expect(holding?.oneofKind === 'exercise' && holding.exercise.interfaceId).toEqual({
      packageId: t.state.demoPackageId,
      moduleName: 'Demo.Holding',
      entityName: 'Holding',
    });

    // A keyed contract, fetched by key inside its choice, and exercised by key.
    const number = `acc-${randomUUID()}`;
    const { transaction: accountTx } = await run(
      [create(ACCOUNT, { bank: ext.party, owner: ext2.party, number })],
      ext,
    );
    const [account] = createdIn(accountTx);
    const issue = await prepare(
      [exercise(ACCOUNT, account ?? '', 'Account_Issue', { currency: 'EUR', amount: '7' })],
      [ext.party],
    );
    expect(nodeTypes(issue.decoded).map((n) => n?.oneofKind)).toEqual([
      'exercise',
      'fetch',
      'create',
    ]);
    const byKey = await prepare(
      [
        {
          ExerciseByKeyCommand: {
            templateId: ACCOUNT,
            contractKey: { bank: ext.party, number },
            choice: 'Account_Issue',
            choiceArgument: { currency: 'EUR', amount: '8' },
          },
        },
      ],
      [ext.party],
    );
    expect(nodeTypes(byKey.decoded).map((n) => n?.oneofKind)).toEqual([
      'exercise',
      'fetch',
      'create',
    ]);

    // A contract ext2 cannot see, disclosed: it becomes an input contract like any other.
    const acs = await t.post('/v2/state/active-contracts', {
      activeAtOffset: t.state.history.ledgerEnd(),
      eventFormat: {
        filtersByParty: {
          [ext.party]: {
            cumulative: [
              {
                identifierFilter: {
                  WildcardFilter: { value: { includeCreatedEventBlob: true } },
                },
              },
            ],
          },
        },
        verbose: true,
      },
    });
    const event = (acs.json as any[])
      .map((entry) => entry.contractEntry.JsActiveContract.createdEvent)
      .find((created) => created.contractId === cid);
    const view = await prepare(
      [exercise(HOLDING, cid, 'Holding_GetView', { viewer: ext2.party })],
      [ext2.party],
      {
        disclosedContracts: [
          {
            contractId: cid,
            templateId: event.templateId,
            createdEventBlob: event.createdEventBlob,
          },
        ],
      },
    );
    const [viewNode] = nodeTypes(view.decoded);
    expect(viewNode?.oneofKind === 'exercise' && viewNode.exercise.consuming).toBe(false);
    expect(view.decoded.metadata?.inputContracts).toHaveLength(1);
    // ext2 signs and executes it: the disclosed contract is authenticated against the store.
    const viewed = await executeAndWait(view, [ext2]);
    expect(viewed.completionOffset).toBe(t.state.history.ledgerEnd());
  });

  it('refuses more than one command, as Canton does', async () => {
    const response = await t.post('/v2/interactive-submission/prepare', {
      commands: [create(IOU, iou(ext.party, ext.party)), create(IOU, iou(ext.party, ext.party))],
      commandId: 'two',
      actAs: [ext.party],
      userId: 'participant_admin',
    });
    const error = expectError(response, 400, 'FAILED_TO_PREPARE_TRANSACTION');
    expect(error.cause).toBe(
      'The participant failed to prepare the transaction: Preparing multiple commands is currently not supported',
    );
  });

  it('interprets like submit: the same validation and interpretation errors', async () => {
    const base = { commandId: 'bad', userId: 'participant_admin' };
    expectError(
      await t.post('/v2/interactive-submission/prepare', {
        ...base,
        commands: [create(IOU, iou(ext.party, ext.party))],
        actAs: [],
      }),
      400,
      'MISSING_FIELD',
    );
    expectError(
      await t.post('/v2/interactive-submission/prepare', {
        ...base,
        commands: [create(IOU, iou(ext.party, ext.party, '-1'))],
        actAs: [ext.party],
      }),
      400,
      'TEMPLATE_PRECONDITION_VIOLATED',
    );
    expectError(
      await t.post('/v2/interactive-submission/prepare', {
        ...base,
        commands: [create('#sandbox-demo:Demo.Iou:Nope', {})],
        actAs: [ext.party],
      }),
      404,
      'TEMPLATES_OR_INTERFACES_NOT_FOUND',
    );
    expectError(
      await t.post('/v2/interactive-submission/prepare', {
        ...base,
        commands: [create(IOU, iou(ext2.party, ext.party))],
        actAs: [ext.party],
      }),
      400,
      'DAML_AUTHORIZATION_ERROR',
    );
    // Without a token nothing names the user: as for submit.
    expectError(
      await t.post('/v2/interactive-submission/prepare', {
        commandId: 'no-user',
        commands: [create(IOU, iou(ext.party, ext.party))],
        actAs: [ext.party],
      }),
      400,
      'INVALID_TOKEN',
    );
    expectError(
      await t.post('/v2/interactive-submission/prepare', {
        ...base,
        commands: [create(IOU, iou(ext.party, ext.party))],
        actAs: [ext.party],
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_UNSPECIFIED',
      }),
      400,
      'INVALID_FIELD',
    );
    const v3 = expectError(
      await t.post('/v2/interactive-submission/prepare', {
        ...base,
        commands: [create(IOU, iou(ext.party, ext.party))],
        actAs: [ext.party],
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3',
      }),
      400,
      'FAILED_TO_PREPARE_TRANSACTION',
    );
    expect(v3.cause).toContain(
      'Hashing scheme version V3 is not supported on protocol version 34. Minimum protocol version for hashing version V3: 35.',
    );
  });
});

describe('execute', () => {
  it('proof: an external party creates and exercises by signing, and reads the result back', async () => {
    const created = await prepare([create(IOU, iou(ext.party, ext.party, '40'))], [ext.party]);
    const [node] = nodeTypes(created.decoded);
    const localId = node?.oneofKind === 'create' ? node.create.contractId : '';
    const done = await executeAndWait(created, [ext]);
    expect(done.updateId).toMatch(/^1220[0-9a-f]{64}$/);

    // The active contracts show it under its suffixed id.
    const acs = await t.post('/v2/state/active-contracts', {
      activeAtOffset: done.completionOffset,
      eventFormat: { filtersByParty: { [ext.party]: { cumulative: [] } }, verbose: true },
    });
    const cid = (acs.json as any[])
      .map((entry) => entry.contractEntry.JsActiveContract.createdEvent.contractId as string)
      .find((id) => id.startsWith(localId));
    expect(cid).toMatch(new RegExp(`^${localId}ca111220[0-9a-f]{64}$`));

    // The update carries the hash the party signed.
    const update = await t.post('/v2/updates/update-by-id', {
      updateId: done.updateId,
      updateFormat: {
        includeTransactions: {
          eventFormat: { filtersByParty: { [ext.party]: { cumulative: [] } }, verbose: true },
          transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
        },
      },
    });
    expect(update.status, update.text).toBe(200);
    const transaction = update.json.update.Transaction.value;
    expect(transaction.externalTransactionHash).toBe(
      Buffer.from(created.preparedTransactionHash, 'base64').toString('hex'),
    );
    expect(transaction.commandId).toBe(created.decoded.metadata?.submitterInfo?.commandId);

    // The exercise: prepared on the suffixed id, its created ids suffixed everywhere they appear.
    const split = await prepare(
      [exercise(IOU, cid ?? '', 'Iou_Split', { splitAmount: '15' })],
      [ext.party],
    );
    const response = await t.post('/v2/interactive-submission/executeAndWaitForTransaction', {
      ...executeBody(split, [ext]),
      transactionFormat: {
        eventFormat: { filtersByParty: { [ext.party]: { cumulative: [] } }, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    });
    expect(response.status, response.text).toBe(200);
    const tx = response.json.transaction;
    expect(tx.externalTransactionHash).toBe(
      Buffer.from(split.preparedTransactionHash, 'base64').toString('hex'),
    );
    const [exercised, ...creates] = tx.events as any[];
    const newIds = creates.map((event) => event.CreatedEvent.contractId as string);
    expect(exercised.ExercisedEvent.exerciseResult).toEqual({
      splitCid: newIds[0],
      restCid: newIds[1],
    });
    const preparedIds = nodeTypes(split.decoded)
      .slice(1)
      .map((n) => (n?.oneofKind === 'create' ? n.create.contractId : ''));
    newIds.forEach((id, i) => {
      expect(id.startsWith(preparedIds[i] ?? '-')).toBe(true);
    });
    const after = await t.post('/v2/state/active-contracts', {
      activeAtOffset: tx.offset,
      eventFormat: { filtersByParty: { [ext.party]: { cumulative: [] } }, verbose: true },
    });
    const active = (after.json as any[]).map(
      (entry) => entry.contractEntry.JsActiveContract.createdEvent.contractId as string,
    );
    expect(active).toEqual(expect.arrayContaining(newIds));
    expect(active).not.toContain(cid);
  });

  it('executes every kind of transaction it prepares, re-interpreted against the ledger', async () => {
    const cid = await createIou(ext, ext, '50');
    const other = await createIou(ext, ext, '5');
    const { transaction: merged } = await run(
      [exercise(IOU, cid, 'Iou_Merge', { otherCid: other })],
      ext,
    );
    const [mergedCid] = createdIn(merged);
    const { transaction: observed } = await run(
      [exercise(IOU, mergedCid ?? '', 'Iou_AddObserver', { newObserver: ext2.party })],
      ext,
    );
    const [observedCid] = createdIn(observed);
    const { transaction: moved } = await run(
      [exercise(HOLDING, observedCid ?? '', 'Holding_Transfer', { newOwner: ext2.party })],
      ext,
    );
    expect(createdIn(moved)).toHaveLength(1);
    const { transaction: issuance } = await run(
      [
        create(ISSUANCE, {
          issuer: ext.party,
          owner: ext.party,
          currency: 'CHF',
          amount: '1',
          count: '3',
        }),
      ],
      ext,
    );
    const { transaction: issued } = await run(
      [exercise(ISSUANCE, createdIn(issuance)[0] ?? '', 'IouIssuance_Issue', {})],
      ext,
    );
    expect(createdIn(issued)).toHaveLength(3);
    const { transaction: fanout } = await run(
      [create(FANOUT, { owner: ext.party, label: 'f' })],
      ext,
    );
    const { transaction: ran } = await run(
      [exercise(FANOUT, createdIn(fanout)[0] ?? '', 'Fanout_Run', { width: '2', depth: '2' })],
      ext,
    );
    expect(createdIn(ran)).toHaveLength(6);
    const number = `acc-${randomUUID()}`;
    await run([create(ACCOUNT, { bank: ext.party, owner: ext2.party, number })], ext);
    const { transaction: byKey } = await run(
      [
        {
          ExerciseByKeyCommand: {
            templateId: ACCOUNT,
            contractKey: { bank: ext.party, number },
            choice: 'Account_Issue',
            choiceArgument: { currency: 'EUR', amount: '8' },
          },
        },
      ],
      ext,
    );
    expect(createdIn(byKey)).toHaveLength(1);
    // Archive: a unit argument and a unit result, by the signatory.
    const { transaction: archived } = await run(
      [exercise(IOU, createdIn(moved)[0] ?? '', 'Archive', {})],
      ext,
    );
    expect((archived.events as any[])[0].ExercisedEvent).toMatchObject({
      choice: 'Archive',
      consuming: true,
      exerciseResult: {},
    });
  });

  it('answers at once with execute and reports the outcome as a completion', async () => {
    const prepared = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party]);
    const body = executeBody(prepared, [ext], { submissionId: 'async-execute-1' });
    const before = t.state.history.ledgerEnd();
    const response = await t.post('/v2/interactive-submission/execute', body);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({});
    const completions = await t.post('/v2/commands/completions?stream_idle_timeout_ms=10', {
      userId: 'participant_admin',
      parties: [ext.party],
      beginExclusive: before,
    });
    expect(completions.status, completions.text).toBe(200);
    const [completion] = (completions.json as any[]).map(
      (entry) => entry.completionResponse.Completion.value,
    );
    expect(completion).toMatchObject({
      commandId: prepared.decoded.metadata?.submitterInfo?.commandId,
      submissionId: 'async-execute-1',
      actAs: [ext.party],
      status: { code: 0 },
    });
  });

  it('refuses a signature by another key, over another hash, or of a tampered transaction', async () => {
    const prepared = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party]);
    const before = t.state.history.ledgerEnd();
    // ext2's key, claiming to be ext's signature.
    const wrongKey = executeBody(prepared, [ext]);
    wrongKey.partySignatures.signatures[0] = {
      party: ext.party,
      signatures: [
        { ...signHash(ext2, prepared.preparedTransactionHash), signedBy: ext.fingerprint },
      ],
    };
    const wrong = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', wrongKey),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(wrong.cause).toBe(
      `The participant failed to execute the transaction: Received 0 valid signatures from distinct keys (1 invalid), but expected at least 1 valid for ${ext.party}. Transaction hash to be signed: 1220${Buffer.from(prepared.preparedTransactionHash, 'base64').toString('hex')}. Ensure the correct transaction hash is signed with the correct key(s).`,
    );
    expect(wrong.context.definite_answer).toBe('false');

    // ext's key over the hash of another transaction.
    const another = await prepare([create(IOU, iou(ext.party, ext.party, '1'))], [ext.party]);
    const otherHash = executeBody(prepared, [ext]);
    otherHash.partySignatures.signatures[0] = {
      party: ext.party,
      signatures: [signHash(ext, another.preparedTransactionHash)],
    };
    const over = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', otherHash),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(over.cause).toContain('Received 0 valid signatures from distinct keys (1 invalid)');

    // The transaction changed after signing: its hash is recomputed from the bytes received.
    const tampered = await changed(prepared, (tx) => {
      const [node] = tx.transaction?.nodes ?? [];
      const kind = node?.versionedNode.oneofKind === 'v1' ? node.versionedNode.v1.nodeType : null;
      if (kind?.oneofKind === 'create' && kind.create.argument?.sum.oneofKind === 'record') {
        const amount = kind.create.argument.sum.record.fields[3];
        if (amount) amount.value = { sum: { oneofKind: 'numeric', numeric: '1000000.0000000000' } };
      }
    });
    const tamperedBody = executeBody(
      { ...tampered, preparedTransactionHash: prepared.preparedTransactionHash },
      [ext],
    );
    const tamperedError = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', tamperedBody),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(tamperedError.cause).toContain(
      'Received 0 valid signatures from distinct keys (1 invalid)',
    );
    // Nothing was committed by any of these.
    expect(t.state.history.ledgerEnd()).toBe(before);
  });

  it('refuses what the party signed itself but the ledger would not have produced', async () => {
    const prepared = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party]);
    // The signer claims ext2 as a signatory: signed, but not what the template says.
    const forged = await changed(prepared, (tx) => {
      const [node] = tx.transaction?.nodes ?? [];
      const kind = node?.versionedNode.oneofKind === 'v1' ? node.versionedNode.v1.nodeType : null;
      if (kind?.oneofKind === 'create') kind.create.signatories = [ext.party, ext2.party].sort();
    });
    const before = t.state.history.ledgerEnd();
    const response = await t.post(
      '/v2/interactive-submission/executeAndWait',
      executeBody(forged, [ext]),
    );
    // A failed model conformance check is a security alert: redacted.
    expectError(response, 400, 'NA');
    expect(t.state.history.ledgerEnd()).toBe(before);
  });

  it('refuses a replay of the same change as a duplicate', async () => {
    const prepared = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party]);
    const first = await executeAndWait(prepared, [ext]);
    const again = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(prepared, [ext])),
      409,
      'DUPLICATE_COMMAND',
    );
    expect(again.context.completion_offset).toBe(String(first.completionOffset));
  });

  it('refuses an archived input contract with the confirming participant\u2019s error', async () => {
    const cid = await createIou();
    const split = await prepare(
      [exercise(IOU, cid, 'Iou_Split', { splitAmount: '1' })],
      [ext.party],
    );
    const archive = await prepare([exercise(IOU, cid, 'Archive', {})], [ext.party]);
    await executeAndWait(archive, [ext]);
    const error = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(split, [ext])),
      404,
      'LOCAL_VERDICT_INACTIVE_CONTRACTS',
    );
    expect(error.cause).toBe('Rejected transaction is referring to inactive contracts ');
    expect(error.resources).toEqual([['CONTRACT_ID', cid]]);
  });

  it('refuses ledger and preparation times outside the bounds the party signed', async () => {
    const prepared = await prepare([create(IOU, iou(ext.party, ext.party))], [ext.party]);
    const nowMicros = BigInt(Date.now()) * 1000n;
    const expired = await changed(prepared, (tx) => {
      if (tx.metadata) tx.metadata.maxLedgerEffectiveTime = nowMicros - 120_000_000n;
    });
    const ledgerTime = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(expired, [ext])),
      409,
      'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
    );
    expect(ledgerTime.cause).toMatch(
      /^Rejected transaction as delta of the ledger time and the record time exceed the time tolerance ledgerTime=.*, recordTime=.*, maxDelta=PT1M$/,
    );
    const stale = await changed(prepared, (tx) => {
      if (tx.metadata) tx.metadata.preparationTime = nowMicros - 25n * 3600n * 1_000_000n;
    });
    expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(stale, [ext])),
      409,
      'LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND',
    );
    // Within the bounds (and the tolerance) the same transaction commits.
    const bounded = await changed(prepared, (tx) => {
      if (tx.metadata) {
        tx.metadata.minLedgerEffectiveTime = nowMicros - 10_000_000n;
        tx.metadata.maxLedgerEffectiveTime = nowMicros + 600_000_000n;
      }
    });
    const ok = await t.post(
      '/v2/interactive-submission/executeAndWait',
      executeBody(bounded, [ext]),
    );
    expect(ok.status, ok.text).toBe(200);
  });

  it('does not commit for a local party, which has no key to sign with', async () => {
    const prepared = await prepare([create(IOU, iou(alice, alice))], [alice]);
    const unsigned = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(prepared, [])),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(unsigned.cause).toBe(
      `The participant failed to execute the transaction: The following actAs parties did not provide an external signature: ${alice}`,
    );
    const body = executeBody(prepared, []);
    body.partySignatures.signatures.push({
      party: alice,
      signatures: [signHash(ext, prepared.preparedTransactionHash)],
    });
    const keyless = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', body),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(keyless.cause).toBe(
      `The participant failed to execute the transaction: Could not find party signing keys for ${alice}.`,
    );
  });

  it('leaves an external party to its own signature: the participant cannot submit for it', async () => {
    const response = await t.post('/v2/commands/submit-and-wait', {
      commands: [create(IOU, iou(ext.party, ext.party))],
      commandId: `submit-${randomUUID()}`,
      actAs: [ext.party],
      userId: 'participant_admin',
    });
    const error = expectError(response, 404, 'NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT');
    expect(error.resources).toEqual([['PARTY', ext.party]]);
  });

  it('refuses transactions Canton refuses before looking at signatures', async () => {
    // createAndExercise prepares into two roots, which no execute accepts.
    const twoRoots = await prepare(
      [
        {
          CreateAndExerciseCommand: {
            templateId: IOU,
            createArguments: iou(ext.party, ext.party),
            choice: 'Iou_Split',
            choiceArgument: { splitAmount: '1' },
          },
        },
      ],
      [ext.party],
    );
    expect(twoRoots.decoded.transaction?.roots).toEqual(['0', '1']);
    const roots = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(twoRoots, [ext])),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(roots.cause).toContain('Transaction with multiple root nodes are not supported');

    // Input contracts left out, though signed so.
    const cid = await createIou();
    const split = await prepare(
      [exercise(IOU, cid, 'Iou_Split', { splitAmount: '1' })],
      [ext.party],
    );
    const withoutInputs = await changed(split, (tx) => {
      if (tx.metadata) tx.metadata.inputContracts = [];
    });
    const missing = expectError(
      await t.post('/v2/interactive-submission/executeAndWait', executeBody(withoutInputs, [ext])),
      400,
      'FAILED_TO_EXECUTE_TRANSACTION',
    );
    expect(missing.cause).toBe(
      `The participant failed to execute the transaction: Provided input contracts do not match the input contracts in the transaction: Missing input contracts: ${cid}`,
    );
    expectError(
      await t.post('/v2/interactive-submission/executeAndWait', {
        ...executeBody(split, [ext]),
        preparedTransaction: Buffer.from('not a protobuf').toString('base64'),
      }),
      400,
      'INVALID_ARGUMENT',
    );
  });
});

describe('authorization', () => {
  let jwt: TestSandbox;
  let signer: ExternalParty;
  const tokenOf = (user: string) => hs256Token(user);

  beforeAll(async () => {
    jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const admin = { token: await hs256Token('participant_admin') };
    signer = await onboardExternalParty(jwt, 'signer', admin);
    await jwt.post(
      '/v2/users',
      { user: { id: 'reader' }, rights: [canReadAs(signer.party)] },
      admin,
    );
    await jwt.post(
      '/v2/users',
      { user: { id: 'executor' }, rights: [canExecuteAs(signer.party)] },
      admin,
    );
  });

  afterAll(() => {
    jwt.close();
  });

  it('prepares with read rights and executes with execute rights, nothing less', async () => {
    const body = {
      commands: [create(IOU, iou(signer.party, signer.party))],
      commandId: 'auth-1',
      actAs: [signer.party],
    };
    // Executing does not imply reading.
    expectError(
      await jwt.post('/v2/interactive-submission/prepare', body, {
        token: await tokenOf('executor'),
      }),
      403,
      'NA',
    );
    const prepared = await jwt.post('/v2/interactive-submission/prepare', body, {
      token: await tokenOf('reader'),
    });
    expect(prepared.status, prepared.text).toBe(200);
    expect(prepared.json.preparedTransactionHash).toBe(
      await hashPreparedTransaction(prepared.json.preparedTransaction as string),
    );
    checkedAgainstReference++;
    const execute = { ...executeBody(prepared.json, [signer]), userId: '' };
    expectError(
      await jwt.post('/v2/interactive-submission/executeAndWait', execute, {
        token: await tokenOf('reader'),
      }),
      403,
      'NA',
    );
    const done = await jwt.post('/v2/interactive-submission/executeAndWait', execute, {
      token: await tokenOf('executor'),
    });
    expect(done.status, done.text).toBe(200);
  });
});
