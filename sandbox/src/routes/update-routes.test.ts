import { describe, expect, it } from 'vitest';
import {
  createCommand,
  FANOUT,
  IOU,
  seededSandboxPerTest,
  submit,
  transactionsOf,
  wildcardFormat,
} from '../testing/ledger-history';
import {
  canReadAs,
  createTestSandbox,
  expectDecodeFailure,
  expectError,
} from '../testing/test-client';
import { hs256Token, TEST_SECRET } from '../testing/tokens';

const { t, h } = seededSandboxPerTest();

const legacyFilter = (parties: string[]) => ({
  filtersByParty: Object.fromEntries(parties.map((party) => [party, { cumulative: [] }])),
});
const kinds = (elements: any[]) => elements.map((element) => Object.keys(element.update)[0]);
const eventKinds = (transaction: any) =>
  (transaction.events as Record<string, unknown>[]).map((event) => Object.keys(event)[0]);
const txOffset = (element: any) => element.update.Transaction.value.offset as number;
const transactionAt = (elements: any[], offset: number) =>
  elements.find((element) => element.update.Transaction?.value.offset === offset)?.update
    .Transaction.value as Record<string, any>;

describe('POST /v2/updates', () => {
  it('lists transactions and, when asked, the topology updates of party allocations', async () => {
    const everything = await t.post('/v2/updates', {
      beginExclusive: 0,
      endInclusive: 11,
      updateFormat: {
        ...transactionsOf([h.bank, h.alice, h.bob, h.carol]),
        includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } },
      },
    });
    expect(everything.status).toBe(200);
    expect(kinds(everything.json)).toEqual([
      ...Array<string>(4).fill('TopologyTransaction'),
      ...Array<string>(7).fill('Transaction'),
    ]);
    const offsets = everything.json.map(
      (element: any) => Object.values<any>(element.update)[0].value.offset as number,
    );
    expect(offsets).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const allocation = everything.json[1].update.TopologyTransaction.value;
    expect(allocation.events[0].event.ParticipantAuthorizationAdded.value).toEqual({
      partyId: h.alice,
      participantId: (await t.get('/v2/parties/participant-id')).json.participantId,
      participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION',
    });

    // Only the named party's allocation; and none at all without includeTopologyEvents.
    const onlyCarol = await t.post('/v2/updates', {
      beginExclusive: 0,
      endInclusive: 11,
      updateFormat: {
        includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [h.carol] } },
      },
    });
    expect(onlyCarol.json).toHaveLength(1);
    expect(onlyCarol.json[0].update.TopologyTransaction.value.offset).toBe(4);
    const noTopology = await t.post('/v2/updates', {
      beginExclusive: 0,
      endInclusive: 11,
      updateFormat: transactionsOf([h.alice]),
    });
    expect(kinds(noTopology.json).every((kind) => kind === 'Transaction')).toBe(true);
  });

  it('projects to the requesting parties: observers see creates and consuming exercises only', async () => {
    const effects = async (party: string) =>
      (
        await t.post('/v2/updates', {
          beginExclusive: 0,
          endInclusive: 11,
          updateFormat: transactionsOf([party], 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
        })
      ).json as Record<string, any>[];
    const alice = await effects(h.alice);
    // Account_Issue is non-consuming: Alice, an observer of the account, sees only its create.
    expect(eventKinds(transactionAt(alice, h.tx.issueEur.offset))).toEqual(['CreatedEvent']);
    const bank = await effects(h.bank);
    expect(eventKinds(transactionAt(bank, h.tx.issueEur.offset))).toEqual([
      'ExercisedEvent',
      'CreatedEvent',
    ]);
    const carol = await effects(h.carol);
    expect(carol.map(txOffset)).toEqual([5, 6, 7]);
    // Bob sees the Iou he receives but not Alice's Iou_Transfer choice on hers.
    const bob = await effects(h.bob);
    const transfer = transactionAt(bob, h.tx.transfer.offset);
    expect(eventKinds(transfer)).toEqual(['CreatedEvent']);
    expect(transfer.events[0].CreatedEvent.witnessParties).toEqual([h.bob]);
    // The submitter's command id is shown to its actAs parties only.
    expect(transactionAt(alice, h.tx.split.offset).commandId).toBe(h.tx.split.commandId);
    expect(transfer.commandId).toBe('');
  });

  it('shows ACS deltas as archives and creates, ledger effects as exercises and creates', async () => {
    const shaped = async (
      shape: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    ) =>
      transactionAt(
        (
          await t.post('/v2/updates', {
            beginExclusive: 5,
            endInclusive: 6,
            updateFormat: transactionsOf([h.alice], shape),
          })
        ).json,
        6,
      );
    const delta = await shaped('TRANSACTION_SHAPE_ACS_DELTA');
    expect(eventKinds(delta)).toEqual(['ArchivedEvent', 'CreatedEvent', 'CreatedEvent']);
    expect(delta.events[0].ArchivedEvent.contractId).toBe(h.cids.iou);
    const effects = await shaped('TRANSACTION_SHAPE_LEDGER_EFFECTS');
    expect(eventKinds(effects)).toEqual(['ExercisedEvent', 'CreatedEvent', 'CreatedEvent']);
    expect(effects.events[0].ExercisedEvent).toMatchObject({
      choice: 'Iou_Split',
      consuming: true,
      acsDelta: true,
      lastDescendantNodeId: 2,
    });
    expect(effects.events[1].CreatedEvent.createArgument.amount).toBe('30.0000000000');
  });

  it('serves /flats as ACS deltas and /trees as ledger-effects trees, from a legacy filter', async () => {
    const flats = await t.post('/v2/updates/flats', {
      beginExclusive: 0,
      endInclusive: 11,
      filter: legacyFilter([h.alice]),
      verbose: true,
    });
    expect(eventKinds(transactionAt(flats.json, 6))).toEqual([
      'ArchivedEvent',
      'CreatedEvent',
      'CreatedEvent',
    ]);
    const trees = await t.post('/v2/updates/trees', {
      beginExclusive: 9,
      filter: legacyFilter([h.alice]),
      endInclusive: 11,
    });
    expect(trees.json.map((element: any) => Object.keys(element.update)[0])).toEqual([
      'TransactionTree',
      'TransactionTree',
    ]);
    const run = trees.json[1].update.TransactionTree.value;
    // Fanout_Run width 2 depth 2: the root, 2 creates, 2 nested runs each with 2 creates.
    const events = Object.values<any>(run.eventsById);
    expect(events).toHaveLength(9);
    expect(Object.keys(run.eventsById).sort((a, b) => Number(a) - Number(b))[0]).toBe('0');
    expect(run.eventsById['0'].ExercisedTreeEvent.value).toMatchObject({
      choice: 'Fanout_Run',
      lastDescendantNodeId: 8,
    });
    expect(run).not.toHaveProperty('rootEventIds');
  });

  it('ends an open request after stream_idle_timeout_ms, with what was committed meanwhile', async () => {
    const started = Date.now();
    const pending = t.post('/v2/updates?stream_idle_timeout_ms=50', {
      beginExclusive: 9,
      updateFormat: transactionsOf([h.alice]),
    });
    await new Promise((resolve) => setTimeout(resolve, 15));
    const late = submit(
      t,
      [h.alice],
      [createCommand(t, FANOUT, { owner: h.alice, label: 'late' })],
    );
    const { json } = await pending;
    expect(json.map(txOffset)).toEqual([10, 11, late.offset]);
    // It ended rather than staying open; generous, for a loaded CI machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 413 above 200 matches unless limit is at most 200', async () => {
    for (let i = 0; i < 200; i++) {
      submit(t, [h.alice], [createCommand(t, FANOUT, { owner: h.alice, label: `bulk-${i}` })]);
    }
    const request = { beginExclusive: 0, updateFormat: transactionsOf([h.alice]) };
    const tooMany = await t.post('/v2/updates?stream_idle_timeout_ms=20', request);
    const error = expectError(tooMany, 413, 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
    expect(error.cause).toBe(
      'The number of matching elements (201) is greater than the node limit (200).',
    );
    expect(error.errorCategory).toBe(2);
    const limited = await t.post('/v2/updates?limit=10', request);
    expect(limited.json).toHaveLength(10);
    expect(limited.json[0].update.Transaction.value.offset).toBe(5);
    // A limit above the node's is ignored.
    expectError(
      await t.post('/v2/updates?limit=500&stream_idle_timeout_ms=20', request),
      413,
      'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
    );
    expectDecodeFailure(
      await t.post('/v2/updates?limit=ten', request),
      'Invalid value for: query parameter limit',
    );
  });

  it('lists newest first with descendingOrder, which needs an end', async () => {
    const { json } = await t.post('/v2/updates', {
      beginExclusive: 6,
      endInclusive: 9,
      descendingOrder: true,
      updateFormat: transactionsOf([h.alice]),
    });
    expect(json.map(txOffset)).toEqual([9, 8, 7]);
    expectError(
      await t.post('/v2/updates', {
        beginExclusive: 0,
        descendingOrder: true,
        updateFormat: transactionsOf([h.alice]),
      }),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('wants exactly one of filter and updateFormat, and no verbose with updateFormat', async () => {
    const both = await t.post('/v2/updates', {
      beginExclusive: 0,
      filter: legacyFilter([h.alice]),
      updateFormat: transactionsOf([h.alice]),
    });
    expect(expectError(both, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Both update_format and filter are set.',
    );
    const verbose = await t.post('/v2/updates/flats', {
      beginExclusive: 0,
      verbose: true,
      updateFormat: transactionsOf([h.alice]),
    });
    expect(expectError(verbose, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Both update_format and verbose are set.',
    );
    const neither = await t.post('/v2/updates/trees', { beginExclusive: 0 });
    expect(expectError(neither, 400, 'INVALID_ARGUMENT').cause).toBe(
      'The submitted request has invalid arguments: Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format.',
    );
    const noShape = await t.post('/v2/updates', {
      beginExclusive: 0,
      updateFormat: { includeTransactions: { eventFormat: wildcardFormat([h.alice]) } },
    });
    expect(expectError(noShape, 400, 'MISSING_FIELD').context.field_name).toBe('transaction_shape');
  });

  it('checks offsets: negative begin, non-positive end, and both against the ledger end', async () => {
    const format = transactionsOf([h.alice]);
    const negative = expectError(
      await t.post('/v2/updates', { beginExclusive: -1, updateFormat: format }),
      400,
      'NEGATIVE_OFFSET',
    );
    expect(negative.cause).toBe(
      'Offset -1 in begin_exclusive is a negative integer: the offset in begin_exclusive field has to be a non-negative integer (>=0)',
    );
    const zeroEnd = expectError(
      await t.post('/v2/updates', { beginExclusive: 0, endInclusive: 0, updateFormat: format }),
      400,
      'NON_POSITIVE_OFFSET',
    );
    expect(zeroEnd.cause).toBe(
      'Offset 0 in end_inclusive is not a positive integer: the offset has to be either a positive integer (>0) or not defined at all',
    );
    const afterEnd = await t.post('/v2/updates', {
      beginExclusive: 0,
      endInclusive: 12,
      updateFormat: format,
    });
    const error = expectError(afterEnd, 400, 'OFFSET_AFTER_LEDGER_END');
    expect(error.cause).toBe('End offset (12) is after ledger end (11)');
    expect(error.errorCategory).toBe(12);
    expect(afterEnd.json.retryInfo).toBe('1 second');
    expect(
      expectError(
        await t.post('/v2/updates', { beginExclusive: 20, updateFormat: format }),
        400,
        'OFFSET_AFTER_LEDGER_END',
      ).cause,
    ).toBe('Begin offset (20) is after ledger end (11)');
  });
});

describe('update lookups', () => {
  it('finds an update by id or offset, and says UPDATE_NOT_FOUND for what the format hides', async () => {
    const byId = await t.post('/v2/updates/update-by-id', {
      updateId: h.tx.split.updateId,
      updateFormat: transactionsOf([h.carol]),
    });
    expect(byId.json.update.Transaction.value.offset).toBe(6);
    const hidden = await t.post('/v2/updates/update-by-id', {
      updateId: h.tx.run.updateId,
      updateFormat: transactionsOf([h.carol]),
    });
    const error = expectError(hidden, 404, 'UPDATE_NOT_FOUND');
    expect(error.cause).toBe('Update not found, or not visible.');
    expect(error.resources).toEqual([['UPDATE_ID', h.tx.run.updateId]]);

    const topology = await t.post('/v2/updates/update-by-offset', {
      offset: 1,
      updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } },
    });
    expect(topology.json.update.TopologyTransaction.value.offset).toBe(1);
    const beyond = await t.post('/v2/updates/update-by-offset', {
      offset: 99,
      updateFormat: transactionsOf([h.alice]),
    });
    expect(expectError(beyond, 404, 'UPDATE_NOT_FOUND').resources).toEqual([['OFFSET', '99']]);
    // A topology update is not found by a transactions-only format.
    expectError(
      await t.post('/v2/updates/update-by-offset', {
        offset: 1,
        updateFormat: transactionsOf([h.bank]),
      }),
      404,
      'UPDATE_NOT_FOUND',
    );
  });

  it('validates lookups: non-positive offsets, empty or malformed ids, missing formats', async () => {
    const zero = await t.post('/v2/updates/update-by-offset', {
      offset: 0,
      updateFormat: transactionsOf([h.alice]),
    });
    expect(expectError(zero, 400, 'NON_POSITIVE_OFFSET').cause).toBe(
      'Offset 0 in offset is not a positive integer: the offset has to be a positive integer (>0)',
    );
    const empty = await t.post('/v2/updates/update-by-id', {
      updateFormat: transactionsOf([h.alice]),
    });
    expect(expectError(empty, 400, 'MISSING_FIELD').context.field_name).toBe('update_id');
    expectError(
      await t.post('/v2/updates/update-by-id', {
        updateId: 'abc',
        updateFormat: transactionsOf([h.alice]),
      }),
      400,
      'INVALID_ARGUMENT',
    );
    const noFormat = await t.post('/v2/updates/update-by-id', { updateId: h.tx.split.updateId });
    expect(expectError(noFormat, 400, 'MISSING_FIELD').context.field_name).toBe('update_format');
    const noHash = await t.post('/v2/updates/update-by-hash', {
      updateFormat: transactionsOf([h.alice]),
    });
    expect(expectError(noHash, 400, 'MISSING_FIELD').context.field_name).toBe('transaction_hash');
    expect(
      expectError(
        await t.post('/v2/updates/update-by-hash', {
          transactionHash: 'q83v',
          updateFormat: transactionsOf([h.alice]),
        }),
        404,
        'UPDATE_NOT_FOUND',
      ).resources,
    ).toEqual([['TRANSACTION_HASH', 'q83v']]);
  });

  it('serves the deprecated transaction lookups with requestingParties or a format, not both', async () => {
    const byId = await t.post('/v2/updates/transaction-by-id', {
      updateId: h.tx.issue.updateId,
      requestingParties: [h.alice],
    });
    expect(byId.json.transaction.workflowId).toBe('issuance');
    expect(eventKinds(byId.json.transaction)).toEqual(['CreatedEvent']);
    const byOffset = await t.post('/v2/updates/transaction-by-offset', {
      offset: 6,
      transactionFormat: {
        eventFormat: wildcardFormat([h.alice]),
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    });
    expect(eventKinds(byOffset.json.transaction)[0]).toBe('ExercisedEvent');
    const both = await t.post('/v2/updates/transaction-by-offset', {
      offset: 6,
      requestingParties: [h.alice],
      transactionFormat: {
        eventFormat: wildcardFormat([h.alice]),
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    });
    expect(expectError(both, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Both requesting_parties and transaction_format are specified.',
    );
    const neither = await t.post('/v2/updates/transaction-by-id', {
      updateId: h.tx.issue.updateId,
    });
    expect(expectError(neither, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Either requesting_parties or transaction_format is required.',
    );
    // Topology updates are not transactions.
    expect(
      expectError(
        await t.post('/v2/updates/transaction-by-offset', {
          offset: 1,
          requestingParties: [h.bank],
        }),
        404,
        'UPDATE_NOT_FOUND',
      ).resources,
    ).toEqual([['OFFSET', '1']]);
  });

  it('serves the deprecated tree lookups by id and offset for the given parties', async () => {
    const path = `/v2/updates/transaction-tree-by-id/${h.tx.issueEur.updateId}`;
    const asBank = await t.get(`${path}?parties=${encodeURIComponent(h.bank)}`);
    const tree = asBank.json.transaction;
    expect(Object.keys(tree.eventsById)).toEqual(['0', '2']);
    expect(tree.eventsById['2'].CreatedTreeEvent.value.templateId).toMatch(
      /^[0-9a-f]{64}:Demo\.Iou:Iou$/,
    );
    const asAlice = await t.get(
      `/v2/updates/transaction-tree-by-offset/${h.tx.issueEur.offset}?parties=${encodeURIComponent(h.alice)}`,
    );
    expect(Object.keys(asAlice.json.transaction.eventsById)).toEqual(['2']);
    const asCarol = await t.get(`${path}?parties=${encodeURIComponent(h.carol)}`);
    expect(expectError(asCarol, 404, 'UPDATE_NOT_FOUND').resources).toEqual([
      ['UPDATE_ID', h.tx.issueEur.updateId],
    ]);
    expect(expectError(await t.get(path), 400, 'MISSING_FIELD').context.field_name).toBe(
      'requesting_parties',
    );
    expectError(
      await t.get(`/v2/updates/transaction-tree-by-offset/0?parties=${encodeURIComponent(h.bank)}`),
      400,
      'NON_POSITIVE_OFFSET',
    );
    expectDecodeFailure(
      await t.get('/v2/updates/transaction-tree-by-offset/abc'),
      'Invalid value for: path parameter offset',
    );
  });
});

describe('POST /v2/updates/get-updates-page', () => {
  const page = (body: Record<string, unknown>) => t.post('/v2/updates/get-updates-page', body);

  it('pages through a closed range and ends with no token', async () => {
    const request = {
      endOffsetInclusive: 11,
      maxPageSize: 3,
      updateFormat: transactionsOf([h.alice]),
    };
    const offsets: number[] = [];
    let token: string | null = '';
    const bounds: [number, number][] = [];
    while (token !== null) {
      const { json }: { json: any } = await page({ ...request, pageToken: token });
      offsets.push(...json.updates.map(txOffset));
      bounds.push([json.lowestPageOffsetExclusive, json.highestPageOffsetInclusive]);
      token = json.nextPageToken;
    }
    expect(offsets).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(bounds).toEqual([
      [0, 7],
      [7, 10],
      [10, 11],
    ]);
  });

  it('pages newest first, and keeps a token for tailing when there is no end', async () => {
    const first = await page({
      maxPageSize: 4,
      descendingOrder: true,
      updateFormat: transactionsOf([h.alice]),
    });
    expect(first.json.updates.map(txOffset)).toEqual([11, 10, 9, 8]);
    expect(first.json.highestPageOffsetInclusive).toBe(11);
    expect(first.json.lowestPageOffsetExclusive).toBe(7);
    const tail = await page({ beginOffsetExclusive: 5, updateFormat: transactionsOf([h.alice]) });
    expect(tail.json.updates).toHaveLength(6);
    expect(tail.json.highestPageOffsetInclusive).toBe(11);
    expect(typeof tail.json.nextPageToken).toBe('string');
    const late = submit(
      t,
      [h.alice],
      [
        createCommand(t, IOU, {
          issuer: h.alice,
          owner: h.alice,
          currency: 'CHF',
          amount: '1',
          observers: [],
        }),
      ],
    );
    const next = await page({
      beginOffsetExclusive: 5,
      updateFormat: transactionsOf([h.alice]),
      pageToken: tail.json.nextPageToken,
    });
    expect(next.json.updates.map(txOffset)).toEqual([late.offset]);
  });

  it('rejects foreign page tokens and page sizes out of range', async () => {
    const format = transactionsOf([h.alice]);
    expectError(
      await page({ updateFormat: format, pageToken: 'bm90LWEtdG9rZW4=' }),
      400,
      'INVALID_UPDATES_PAGE_TOKEN',
    );
    const first = await page({ maxPageSize: 1, endOffsetInclusive: 11, updateFormat: format });
    expectError(
      await page({
        maxPageSize: 1,
        endOffsetInclusive: 11,
        updateFormat: transactionsOf([h.bob]),
        pageToken: first.json.nextPageToken,
      }),
      400,
      'INVALID_UPDATES_PAGE_TOKEN',
    );
    expectError(await page({ maxPageSize: 0, updateFormat: format }), 400, 'INVALID_ARGUMENT');
    expect(expectError(await page({}), 400, 'MISSING_FIELD').context.field_name).toBe(
      'update_format',
    );
  });
});

describe('update authorization', () => {
  it('needs ReadAs for every party in the format', async () => {
    const jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    try {
      const admin = await hs256Token('participant_admin');
      const alice = (await jwt.post('/v2/parties', { partyIdHint: 'Alice' }, { token: admin })).json
        .partyDetails.party;
      const bob = (await jwt.post('/v2/parties', { partyIdHint: 'Bob' }, { token: admin })).json
        .partyDetails.party;
      await jwt.post(
        '/v2/users',
        { user: { id: 'reader' }, rights: [canReadAs(alice)] },
        { token: admin },
      );
      const token = await hs256Token('reader');
      const request = (parties: string[]) => ({
        beginExclusive: 0,
        endInclusive: 2,
        updateFormat: {
          includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties } },
        },
      });
      const own = await jwt.post('/v2/updates', request([alice]), { token });
      expect(own.json).toHaveLength(1);
      expectError(await jwt.post('/v2/updates', request([alice, bob]), { token }), 403, 'NA');
      // An empty party list means every party, which needs ReadAsAnyParty.
      expectError(await jwt.post('/v2/updates', request([]), { token }), 403, 'NA');
      expectError(await jwt.post('/v2/updates', request([alice])), 401, 'NA');
    } finally {
      jwt.close();
    }
  });
});
