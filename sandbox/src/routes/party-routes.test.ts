import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectedSynchronizers } from '../synchronizers';
import {
  createTestSandbox,
  expectDecodeFailure,
  expectError,
  sandboxPerTest,
  type TestSandbox,
} from '../testing/test-client';

const t = sandboxPerTest();

const allocate = (body: Record<string, unknown>) => t.post('/v2/parties', body);
const PARTY_ID = /^[A-Za-z0-9:_ -]+::1220[0-9a-f]{64}$/;

describe('parties', () => {
  it('allocates hint::<participant namespace> and returns local details', async () => {
    const { json } = await allocate({
      partyIdHint: 'Alice',
      localMetadata: { annotations: { role: 'bank' } },
    });
    expect(json.partyDetails.party).toMatch(PARTY_ID);
    expect(json.partyDetails.party.startsWith('Alice::1220')).toBe(true);
    expect(json.partyDetails).toMatchObject({
      isLocal: true,
      localMetadata: { resourceVersion: '0', annotations: { role: 'bank' } },
      identityProviderId: '',
    });
    const { participantId } = (await t.get('/v2/parties/participant-id')).json;
    expect(participantId).toMatch(/^sandbox::1220[0-9a-f]{64}$/);
    expect(json.partyDetails.party.split('::')[1]).toBe(participantId.split('::')[1]);
  });

  it('names hintless parties party-<uuid>', async () => {
    const { json } = await allocate({});
    expect(json.partyDetails.party).toMatch(/^party-[0-9a-f-]{36}::1220/);
  });

  it('rejects a second allocation of the same hint and bad hints with INVALID_ARGUMENT', async () => {
    await allocate({ partyIdHint: 'Bob' });
    expect(
      expectError(await allocate({ partyIdHint: 'Bob' }), 400, 'INVALID_ARGUMENT').cause,
    ).toContain('Party already exists: party Bob::1220');
    expect(
      expectError(await allocate({ partyIdHint: 'bad!' }), 400, 'INVALID_ARGUMENT').cause,
    ).toContain('non expected character 0x21');
    expect(
      expectError(await allocate({ partyIdHint: 'a::b' }), 400, 'INVALID_ARGUMENT').cause,
    ).toContain('Invalid party ID');
    expectError(await allocate({ partyIdHint: 'x'.repeat(186) }), 400, 'INVALID_ARGUMENT');
  });

  it('grants CanActAs to the named user', async () => {
    await t.post('/v2/users', { user: { id: 'carol' } });
    const { json } = await allocate({ partyIdHint: 'Carol', userId: 'carol' });
    const rights = (await t.get('/v2/users/carol/rights')).json.rights;
    expect(rights).toEqual([{ kind: { CanActAs: { value: { party: json.partyDetails.party } } } }]);
    expectError(await allocate({ partyIdHint: 'Dan', userId: 'ghost' }), 404, 'USER_NOT_FOUND');
    // All or nothing: the failed allocation left no party behind.
    expect((await t.get('/v2/parties?filter-party=Dan')).json.partyDetails).toEqual([]);
  });

  it('lists parties in order with paging, prefix filter and the 10000 limit', async () => {
    for (const hint of ['c', 'a', 'b', 'ab']) await allocate({ partyIdHint: hint });
    const first = await t.get('/v2/parties?pageSize=2');
    expect(first.json.partyDetails.map((p: { party: string }) => p.party.split('::')[0])).toEqual([
      'a',
      'ab',
    ]);
    const rest = await t.get(
      `/v2/parties?pageSize=2&pageToken=${encodeURIComponent(first.json.nextPageToken)}`,
    );
    expect(rest.json.partyDetails.map((p: { party: string }) => p.party.split('::')[0])).toEqual([
      'b',
      'c',
    ]);
    const filtered = await t.get('/v2/parties?filter-party=a');
    expect(filtered.json.partyDetails).toHaveLength(2);
    expect(filtered.json.nextPageToken).toBe('');
    expect(
      expectError(await t.get('/v2/parties?pageSize=10001'), 400, 'INVALID_ARGUMENT').cause,
    ).toContain("Page size must not exceed the server's maximum of 10000");
    expectError(await t.get('/v2/parties?pageSize=-1'), 400, 'INVALID_ARGUMENT');
    expectError(await t.get('/v2/parties?pageToken=%21%21'), 400, 'INVALID_ARGUMENT');
    expectDecodeFailure(
      await t.get('/v2/parties?pageSize=1.5'),
      'Invalid value for: query parameter pageSize',
    );
  });

  it('gets details of known parties and silently omits unknown ones', async () => {
    const alice = (await allocate({ partyIdHint: 'Alice' })).json.partyDetails.party as string;
    const both = await t.get(
      `/v2/parties/${encodeURIComponent(alice)}?parties=${encodeURIComponent('Nobody::1220ab')}`,
    );
    expect(both.json.partyDetails.map((p: { party: string }) => p.party)).toEqual([alice]);
    expect((await t.get('/v2/parties/Nobody::1220ab')).json).toEqual({ partyDetails: [] });
    expectError(await t.get('/v2/parties/bad!party'), 400, 'INVALID_ARGUMENT');
  });

  it('checks a __proto__ annotation key like any other, on allocate and update', async () => {
    const proto = JSON.parse('{"__proto__":"x"}') as Record<string, string>;
    const invalid = "Key name segment '__proto__' has invalid syntax";
    const allocated = await allocate({ partyIdHint: 'Pro', localMetadata: { annotations: proto } });
    expect(expectError(allocated, 400, 'INVALID_ARGUMENT').cause).toContain(invalid);
    const party = (await allocate({ partyIdHint: 'Pro' })).json.partyDetails.party as string;
    const updated = await t.patch(`/v2/parties/${encodeURIComponent(party)}`, {
      partyDetails: { party, localMetadata: { resourceVersion: '0', annotations: proto } },
      updateMask: { paths: ['local_metadata.annotations'] },
    });
    expect(expectError(updated, 400, 'INVALID_ARGUMENT').cause).toContain(invalid);
  });

  it('updates annotations with merge semantics and resource versions', async () => {
    const party = (
      await allocate({ partyIdHint: 'Eve', localMetadata: { annotations: { a: '1' } } })
    ).json.partyDetails.party as string;
    const path = `/v2/parties/${encodeURIComponent(party)}`;
    const updated = await t.patch(path, {
      partyDetails: {
        party,
        localMetadata: { resourceVersion: '0', annotations: { a: '', b: '2' } },
      },
      updateMask: { paths: ['local_metadata.annotations'] },
    });
    expect(updated.json.partyDetails.localMetadata).toEqual({
      resourceVersion: '1',
      annotations: { b: '2' },
    });
    const stale = await t.patch(path, {
      partyDetails: { party, localMetadata: { resourceVersion: '0', annotations: { c: '3' } } },
      updateMask: { paths: ['local_metadata'] },
    });
    expectError(stale, 409, 'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED');
    const isLocal = await t.patch(path, {
      partyDetails: { party, isLocal: false },
      updateMask: { paths: ['is_local'] },
    });
    expectError(isLocal, 400, 'INVALID_PARTY_DETAILS_UPDATE_REQUEST');
    const unknown = await t.patch('/v2/parties/Ghost::1220ab', {
      partyDetails: { party: 'Ghost::1220ab' },
      updateMask: { paths: ['local_metadata'] },
    });
    expectError(unknown, 404, 'PARTY_NOT_FOUND');
    const mismatch = await t.patch(path, {
      partyDetails: { party: 'Other' },
      updateMask: { paths: ['party'] },
    });
    expect(expectError(mismatch, 400, 'INVALID_ARGUMENT').cause).toContain(
      'does not match party in body',
    );
  });

  it('scopes listings by IdP: parties of other IdPs are shown blinded', async () => {
    await t.post('/v2/idps', {
      identityProviderConfig: {
        identityProviderId: 'bank',
        issuer: 'bank-issuer',
        jwksUrl: 'https://bank.example/jwks',
      },
    });
    await allocate({
      partyIdHint: 'BankParty',
      identityProviderId: 'bank',
      localMetadata: { annotations: { k: 'v' } },
    });
    await allocate({ partyIdHint: 'DefaultParty' });
    const asDefault = (await t.get('/v2/parties')).json.partyDetails as {
      party: string;
      isLocal: boolean;
    }[];
    expect(asDefault.find((p) => p.party.startsWith('BankParty'))).toMatchObject({
      isLocal: false,
      identityProviderId: '',
      localMetadata: { resourceVersion: '', annotations: {} },
    });
    expect(asDefault.find((p) => p.party.startsWith('DefaultParty'))?.isLocal).toBe(true);
    const asBank = (await t.get('/v2/parties?identity-provider-id=bank')).json.partyDetails as {
      party: string;
      isLocal: boolean;
      identityProviderId: string;
    }[];
    expect(asBank.find((p) => p.party.startsWith('BankParty'))).toMatchObject({
      isLocal: true,
      identityProviderId: 'bank',
    });
  });
});

describe('parties with two synchronizers', () => {
  let two: TestSandbox;
  beforeEach(() => {
    two = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
  });
  afterEach(() => {
    two.close();
  });
  const [alpha = '', beta = ''] = connectedSynchronizers(['alpha', 'beta']).map((s) => s.id);
  const topologyOf = async (sandbox: TestSandbox, party: string) => {
    const updates = await sandbox.post('/v2/updates', {
      beginExclusive: 0,
      updateFormat: {
        includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [party] } },
      },
    });
    return (updates.json as any[]).map(
      (element) => element.update.TopologyTransaction.value as Record<string, unknown>,
    );
  };

  it('needs the synchronizer named: PARTY_ALLOCATION_CANNOT_DETERMINE_SYNCHRONIZER', async () => {
    const error = expectError(
      await two.post('/v2/parties', { partyIdHint: 'Alice', synchronizerId: '' }),
      400,
      'PARTY_ALLOCATION_CANNOT_DETERMINE_SYNCHRONIZER',
    );
    expect(error.errorCategory).toBe(9);
    expect(error.cause).toBe(
      `Cannot determine the synchronizer on which to allocate party Alice::${two.state.namespace}, because the participant is connected to multiple synchronizers and no synchronizer was specified.`,
    );
    // Nothing was allocated, and no offset taken.
    expect((await two.get('/v2/parties')).json.partyDetails).toEqual([]);
    expect(two.state.history.ledgerEnd()).toBe(0);
    // Request validation and the user lookup come first.
    expectError(await two.post('/v2/parties', { partyIdHint: 'bad!' }), 400, 'INVALID_ARGUMENT');
    expectError(
      await two.post('/v2/parties', { partyIdHint: 'Dan', userId: 'ghost' }),
      404,
      'USER_NOT_FOUND',
    );
  });

  it('allocates on the named synchronizer, with its topology update there', async () => {
    const { json } = await two.post('/v2/parties', { partyIdHint: 'Bob', synchronizerId: beta });
    const bob = json.partyDetails.party as string;
    expect(bob).toBe(`Bob::${two.state.namespace}`);
    expect(json.partyDetails).toMatchObject({ isLocal: true, identityProviderId: '' });
    const [allocation, ...rest] = await topologyOf(two, bob);
    expect(rest).toEqual([]);
    expect(allocation).toMatchObject({ offset: 1, synchronizerId: beta });
    expect(two.state.hostingSynchronizers(bob)).toEqual([beta]);
  });

  it('hosts a party on a second synchronizer, once per synchronizer', async () => {
    const first = await two.post('/v2/parties', {
      partyIdHint: 'Carol',
      synchronizerId: alpha,
      localMetadata: { annotations: { desk: 'fx' } },
    });
    const carol = first.json.partyDetails.party as string;
    expect(
      expectError(
        await two.post('/v2/parties', { partyIdHint: 'Carol', synchronizerId: alpha }),
        400,
        'INVALID_ARGUMENT',
      ).cause,
    ).toContain(`Party already exists: party ${carol} is already allocated on this node`);
    // On the other synchronizer it is a new hosting; the party record is updated, not replaced.
    const second = await two.post('/v2/parties', {
      partyIdHint: 'Carol',
      synchronizerId: beta,
      localMetadata: { annotations: { region: 'eu' } },
    });
    expect(second.status, second.text).toBe(200);
    expect(second.json.partyDetails).toMatchObject({
      party: carol,
      localMetadata: { resourceVersion: '1', annotations: { desk: 'fx', region: 'eu' } },
    });
    expect(two.state.hostingSynchronizers(carol)).toEqual([alpha, beta]);
    expect((await topologyOf(two, carol)).map((update) => update.synchronizerId)).toEqual([
      alpha,
      beta,
    ]);
    expectError(
      await two.post('/v2/parties', { partyIdHint: 'Carol', synchronizerId: beta }),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('refuses synchronizers it is not connected to, and malformed ids', async () => {
    const unknown = expectError(
      await two.post('/v2/parties', { partyIdHint: 'Dave', synchronizerId: 'gamma::1220ab' }),
      400,
      'NOT_CONNECTED_TO_SYNCHRONIZER',
    );
    expect(unknown.cause).toBe('This participant is not connected to synchronizer gamma::1220ab.');
    expect(unknown.errorCategory).toBe(9);
    expect(unknown.context.definite_answer).toBe('false');
    const malformed = expectError(
      await two.post('/v2/parties', { partyIdHint: 'Dave', synchronizerId: 'gamma' }),
      400,
      'INVALID_FIELD',
    );
    expect(malformed.context.field_name).toBe('synchronizer_id');
    expect((await two.get('/v2/parties')).json.partyDetails).toEqual([]);
  });
});

describe('parties with the one default synchronizer', () => {
  it('allocates without a synchronizer id, or with that one, and refuses others', async () => {
    const { json } = await allocate({
      partyIdHint: 'Erin',
      synchronizerId: t.state.synchronizerId,
    });
    expect(json.partyDetails.party).toBe(`Erin::${t.state.namespace}`);
    expect(t.state.synchronizerIds).toEqual([t.state.synchronizerId]);
    expectError(
      await allocate({ partyIdHint: 'Frank', synchronizerId: 'other::1220ab' }),
      400,
      'NOT_CONNECTED_TO_SYNCHRONIZER',
    );
  });
});
