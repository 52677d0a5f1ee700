import { describe, expect, it } from 'vitest';
import {
  createCommand,
  createdIds,
  IOU,
  seededSandboxPerTest,
  submit,
} from '../testing/ledger-history';
import { canReadAs, createTestSandbox, expectError, plainRight } from '../testing/test-client';
import { TEST_SECRET, hs256Token } from '../testing/tokens';

const { t, h } = seededSandboxPerTest();

const contractById = (contractId: string, queryingParties?: string[]) =>
  t.post('/v2/contracts/contract-by-id', {
    contractId,
    ...(queryingParties === undefined ? {} : { queryingParties }),
  });

/** The created event events-by-contract-id gives the parties, with the blob. */
async function eventOf(contractId: string, parties: string[]) {
  const { json } = await t.post('/v2/events/events-by-contract-id', {
    contractId,
    eventFormat: {
      filtersByParty: Object.fromEntries(
        parties.map((party) => [
          party,
          {
            cumulative: [
              {
                identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } },
              },
            ],
          },
        ]),
      ),
      verbose: false,
    },
  });
  return json.created.createdEvent;
}

describe('POST /v2/contracts/contract-by-id', () => {
  it("gives an active contract's created event as its querying stakeholders see it", async () => {
    const { status, json } = await contractById(h.cids.rest70, [h.alice]);
    expect(status).toBe(200);
    expect(Object.keys(json)).toEqual(['createdEvent']);
    const event = await eventOf(h.cids.rest70, [h.alice]);
    // The store knows no offset, node or ACS membership: fixed placeholders instead.
    expect(json.createdEvent).toEqual({ ...event, offset: 1, nodeId: 0, acsDelta: false });
    expect(event.offset).not.toBe(1);
    expect(json.createdEvent).toMatchObject({
      contractId: h.cids.rest70,
      witnessParties: [h.alice],
      signatories: [h.bank],
      observers: [h.alice, h.carol],
      createArgument: { issuer: h.bank, owner: h.alice, currency: 'USD', amount: '70.0000000000' },
      interfaceViews: [],
      representativePackageId: t.state.demoPackageId,
      packageName: 'sandbox-demo',
    });
    expect(json.createdEvent.createdEventBlob).not.toBe('');
  });

  it('finds an archived contract too', async () => {
    const { status, json } = await contractById(h.cids.iou, [h.carol]);
    expect(status).toBe(200);
    expect(json.createdEvent).toEqual({
      ...(await eventOf(h.cids.iou, [h.carol])),
      offset: 1,
      nodeId: 0,
      acsDelta: false,
    });
  });

  it('finds a contract created and archived in one transaction', async () => {
    const transient = h.tx.run.nodes.find(
      (node) => node.kind === 'create' && node.archivedInNode !== null,
    );
    expect(transient?.kind).toBe('create');
    const { status, json } = await contractById(transient?.contractId ?? '', [h.alice]);
    expect(status).toBe(200);
    expect(json.createdEvent.witnessParties).toEqual([h.alice]);
  });

  it('shows only the querying parties that are stakeholders, and every stakeholder for none', async () => {
    const some = await contractById(h.cids.rest70, [h.bob, h.carol, h.bank]);
    expect(some.json.createdEvent.witnessParties).toEqual([h.bank, h.carol].sort());
    const all = await contractById(h.cids.rest70);
    expect(all.json.createdEvent.witnessParties).toEqual([h.bank, h.alice, h.carol].sort());
  });

  it('says CONTRACT_PAYLOAD_NOT_FOUND for unknown contracts and ones no querying party sees', async () => {
    const unknown = `00${'ab'.repeat(32)}ca111220${'cd'.repeat(32)}`;
    const error = expectError(
      await contractById(unknown, [h.alice]),
      404,
      'CONTRACT_PAYLOAD_NOT_FOUND',
    );
    expect(error.cause).toBe('Contract payload not found, or not visible.');
    expect(error.resources).toEqual([['CONTRACT_ID', unknown]]);
    expect(error.context.definite_answer).toBe('false');
    expect(error.errorCategory).toBe(11);
    // Bob only ever held the 30 split off it; Dave is no party at all.
    expectError(await contractById(h.cids.rest70, [h.bob]), 404, 'CONTRACT_PAYLOAD_NOT_FOUND');
    expectError(await contractById(unknown), 404, 'CONTRACT_PAYLOAD_NOT_FOUND');
  });

  it('wants a well-formed contract id and party ids', async () => {
    const empty = await contractById('', [h.alice]);
    expect(expectError(empty, 400, 'MISSING_FIELD').context.field_name).toBe('contract_id');
    const missing = await t.post('/v2/contracts/contract-by-id', { queryingParties: [h.alice] });
    expect(expectError(missing, 400, 'MISSING_FIELD').context.field_name).toBe('contract_id');
    const malformed = expectError(
      await contractById('not-a-contract-id', [h.alice]),
      400,
      'INVALID_FIELD',
    );
    expect(malformed.context.field_name).toBe('contract_id');
    const badParty = expectError(
      await contractById(h.cids.rest70, ['bad party!']),
      400,
      'INVALID_ARGUMENT',
    );
    expect(badParty.cause).toContain('non expected character 0x21 in Daml-LF Party');
    const wrongType = await t.post('/v2/contracts/contract-by-id', {
      contractId: h.cids.rest70,
      queryingParties: 'alice',
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).toMatch(/^Invalid value for: body \(/);
  });
});

describe('contract-by-id with authorization', () => {
  it('needs ReadAs for each querying party, and ReadAsAnyParty for none', async () => {
    const jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    try {
      const admin = await hs256Token('participant_admin');
      const party = async (hint: string) =>
        (await jwt.post('/v2/parties', { partyIdHint: hint }, { token: admin })).json.partyDetails
          .party as string;
      const bank = await party('Bank');
      const alice = await party('Alice');
      const bob = await party('Bob');
      const issued = submit(
        jwt,
        [bank],
        [
          createCommand(jwt, IOU, {
            issuer: bank,
            owner: alice,
            currency: 'USD',
            amount: '1',
            observers: [],
          }),
        ],
      );
      const [iou = ''] = createdIds(issued);
      await jwt.post(
        '/v2/users',
        { user: { id: 'alice' }, rights: [canReadAs(alice)] },
        { token: admin },
      );
      await jwt.post(
        '/v2/users',
        { user: { id: 'auditor' }, rights: [plainRight('CanReadAsAnyParty')] },
        { token: admin },
      );
      const aliceToken = await hs256Token('alice');
      const auditorToken = await hs256Token('auditor');
      const lookup = (token: string | undefined, queryingParties: string[]) =>
        jwt.post(
          '/v2/contracts/contract-by-id',
          { contractId: iou, queryingParties },
          token === undefined ? {} : { token },
        );

      expect((await lookup(aliceToken, [alice])).json.createdEvent.witnessParties).toEqual([alice]);
      expectError(await lookup(aliceToken, [alice, bob]), 403, 'NA');
      expectError(await lookup(aliceToken, []), 403, 'NA');
      expectError(await lookup(undefined, [alice]), 401, 'NA');
      // Refused before the contract id is even looked at.
      const refused = await jwt.post(
        '/v2/contracts/contract-by-id',
        { contractId: '', queryingParties: [bob] },
        { token: aliceToken },
      );
      expectError(refused, 403, 'NA');
      const anyParty = await lookup(auditorToken, []);
      expect(anyParty.json.createdEvent.witnessParties).toEqual([alice, bank].sort());
      expect((await lookup(auditorToken, [bob])).status).toBe(404);
    } finally {
      jwt.close();
    }
  });
});
