import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestSandbox,
  expectDecodeFailure,
  expectError,
  type TestSandbox,
} from '../testing/test-client';

let t: TestSandbox;
beforeEach(() => {
  t = createTestSandbox();
});
afterEach(() => {
  t.close();
});

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
