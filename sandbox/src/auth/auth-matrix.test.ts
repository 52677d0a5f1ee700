import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canActAs,
  canReadAs,
  createTestSandbox,
  expectError,
  plainRight,
  type TestSandbox,
} from '../testing/test-client';
import { TEST_SECRET, hs256Token, startIdentityProvider } from '../testing/tokens';

type Caller =
  | 'participant admin'
  | 'IdP admin of A'
  | 'IdP admin of B'
  | 'plain user'
  | 'no token'
  | 'expired token'
  | 'unknown issuer'
  | 'deactivated user';

const CALLERS: Caller[] = [
  'participant admin',
  'IdP admin of A',
  'IdP admin of B',
  'plain user',
  'no token',
  'expired token',
  'unknown issuer',
  'deactivated user',
];

let t: TestSandbox;
let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
const tokens = new Map<Caller, string | undefined>();
let partyOfA = '';
let partyOfPlain = '';

beforeAll(async () => {
  idp = await startIdentityProvider();
  t = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
  const admin = await hs256Token('participant_admin');
  const asAdmin = { token: admin };
  for (const name of ['A', 'B']) {
    const created = await t.post(
      '/v2/idps',
      {
        identityProviderConfig: {
          identityProviderId: `idp-${name}`,
          issuer: `https://issuer-${name}.example`,
          jwksUrl: idp.jwksUrl,
          audience: `console-${name}`,
        },
      },
      asAdmin,
    );
    expect(created.status, created.text).toBe(200);
    await t.post(
      '/v2/users',
      {
        user: { id: `admin-${name}`, identityProviderId: `idp-${name}` },
        rights: [plainRight('IdentityProviderAdmin')],
      },
      asAdmin,
    );
  }
  partyOfA = (
    await t.post('/v2/parties', { partyIdHint: 'PartyA', identityProviderId: 'idp-A' }, asAdmin)
  ).json.partyDetails.party;
  partyOfPlain = (await t.post('/v2/parties', { partyIdHint: 'Plain' }, asAdmin)).json.partyDetails
    .party;
  await t.post('/v2/users', { user: { id: 'plain' }, rights: [canActAs(partyOfPlain)] }, asAdmin);
  await t.post('/v2/users', { user: { id: 'sleepy', isDeactivated: true } }, asAdmin);
  await t.post('/v2/users', { user: { id: 'member-a', identityProviderId: 'idp-A' } }, asAdmin);

  tokens.set('participant admin', admin);
  tokens.set(
    'IdP admin of A',
    await idp.token('admin-A', { issuer: 'https://issuer-A.example', audience: 'console-A' }),
  );
  tokens.set(
    'IdP admin of B',
    await idp.token('admin-B', { issuer: 'https://issuer-B.example', audience: 'console-B' }),
  );
  tokens.set('plain user', await hs256Token('plain'));
  tokens.set('no token', undefined);
  tokens.set('expired token', await hs256Token('participant_admin', { expiresIn: '-10m' }));
  tokens.set(
    'unknown issuer',
    await idp.token('admin-A', { issuer: 'https://nobody.example', audience: 'console-A' }),
  );
  tokens.set('deactivated user', await hs256Token('sleepy'));
});

afterAll(async () => {
  t.close();
  await idp.close();
});

const as = (caller: Caller) => {
  const token = tokens.get(caller);
  return token === undefined ? {} : { token };
};

type MatrixRow = {
  name: string;
  call: (caller: Caller) => Promise<{ status: number; text: string }>;
  expected: number[];
};

/** A row that GETs a fixed path, named after it. */
const getRow = (path: string, expected: number[]): MatrixRow => ({
  name: `GET ${path}`,
  call: (caller) => t.get(path, as(caller)),
  expected,
});

// Expected HTTP status per caller, in CALLERS order (ledger-api-behaviour.md §4.6, §4.7).
const MATRIX: MatrixRow[] = [
  getRow('/v2/version', [200, 200, 200, 200, 200, 200, 200, 403]),
  getRow('/v2/users', [200, 200, 200, 403, 401, 401, 401, 403]),
  getRow('/v2/users/plain', [200, 403, 403, 200, 401, 401, 401, 403]),
  getRow('/v2/users/member-a?identity-provider-id=idp-A', [200, 200, 403, 403, 401, 401, 401, 403]),
  getRow('/v2/authenticated-user', [200, 200, 200, 200, 401, 401, 401, 403]),
  getRow('/v2/idps', [200, 403, 403, 403, 401, 401, 401, 403]),
  getRow('/v2/parties', [200, 200, 200, 403, 401, 401, 401, 403]),
  {
    name: 'GET /v2/parties/{plain user party}',
    call: (caller) => t.get(`/v2/parties/${encodeURIComponent(partyOfPlain)}`, as(caller)),
    expected: [200, 200, 200, 200, 401, 401, 401, 403],
  },
  getRow('/v2/parties/participant-id', [200, 200, 200, 200, 401, 401, 401, 403]),
  {
    name: 'POST /v2/users into IdP A',
    call: (caller) =>
      t.post(
        '/v2/users',
        { user: { id: `new-${caller.replace(/\W/g, '-')}`, identityProviderId: 'idp-A' } },
        as(caller),
      ),
    expected: [200, 200, 403, 403, 401, 401, 401, 403],
  },
  {
    name: 'POST /v2/users/member-a/rights with ParticipantAdmin',
    call: (caller) =>
      t.post(
        '/v2/users/member-a/rights',
        {
          userId: 'member-a',
          identityProviderId: 'idp-A',
          rights: [plainRight('ParticipantAdmin')],
        },
        as(caller),
      ),
    expected: [200, 403, 403, 403, 401, 401, 401, 403],
  },
];

describe('auth matrix in jwt mode', () => {
  for (const row of MATRIX) {
    it(`${row.name}: ${row.expected.join(' ')}`, async () => {
      const statuses: number[] = [];
      for (const caller of CALLERS) statuses.push((await row.call(caller)).status);
      expect(Object.fromEntries(CALLERS.map((c, i) => [c, statuses[i]]))).toEqual(
        Object.fromEntries(CALLERS.map((c, i) => [c, row.expected[i]])),
      );
    });
  }

  it('redacts 401 and 403 bodies to NA and marks token problems', async () => {
    const unauthenticated = expectError(await t.get('/v2/users'), 401, 'NA');
    expect(unauthenticated).toMatchObject({
      cause: 'A security-sensitive error has been received',
      errorCategory: -1,
      grpcCodeValue: 16,
      context: {},
      resources: [],
    });
    const denied = expectError(await t.get('/v2/idps', as('plain user')), 403, 'NA');
    expect(denied.grpcCodeValue).toBe(7);
    const deactivated = expectError(await t.get('/v2/users', as('deactivated user')), 403, 'NA');
    expect(deactivated.context).toEqual({ ledger_api_error: 'invalid token' });
  });

  it('lists only the IdP admin’s own users', async () => {
    const { json } = await t.get('/v2/users', as('IdP admin of A'));
    const ids = (json.users as { id: string; identityProviderId: string }[]).map(
      (u) => u.identityProviderId,
    );
    expect(new Set(ids)).toEqual(new Set(['idp-A']));
    const adminView = await t.get('/v2/users', as('participant admin'));
    expect((adminView.json.users as { id: string }[]).map((u) => u.id)).not.toContain('member-a');
  });

  it('lets an IdP admin grant rights only over parties of its IdP', async () => {
    const grant = (party: string) =>
      t.post(
        '/v2/users/member-a/rights',
        { userId: 'member-a', rights: [canActAs(party)] },
        as('IdP admin of A'),
      );
    expect((await grant(partyOfA)).status).toBe(200);
    const foreign = expectError(await grant(partyOfPlain), 404, 'UNKNOWN_RESOURCE');
    expect(foreign.cause).toContain(
      'Provided parties have not been found in identity_provider_id=`idp-A`',
    );
  });

  it('lets an IdP admin name another IdP’s party as primary party, which grants nothing', async () => {
    // Canton 3.5.7 checks only the parties of rights against the IdP (verifyPartiesExistInIdp);
    // a primary party is a default, used only with a CanActAs/CanReadAs right for it.
    const created = await t.post(
      '/v2/users',
      { user: { id: 'member-a2', primaryParty: partyOfPlain }, rights: [] },
      as('IdP admin of A'),
    );
    expect(created.status, created.text).toBe(200);
    expect(created.json.user).toMatchObject({
      primaryParty: partyOfPlain,
      identityProviderId: 'idp-A',
    });
    await t.post('/v2/users', { user: { id: 'member-a3' }, rights: [] }, as('IdP admin of A'));
    const updated = await t.patch(
      '/v2/users/member-a3',
      {
        user: { id: 'member-a3', primaryParty: partyOfPlain },
        updateMask: { paths: ['primary_party'] },
      },
      as('IdP admin of A'),
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.user.primaryParty).toBe(partyOfPlain);

    const member = await idp.token('member-a3', {
      issuer: 'https://issuer-A.example',
      audience: 'console-A',
    });
    const me = await t.get('/v2/authenticated-user', { token: member });
    expect(me.json.user).toMatchObject({ id: 'member-a3', primaryParty: partyOfPlain });
    const read = await t.get(`/v2/parties/${encodeURIComponent(partyOfPlain)}`, { token: member });
    expect(read.status).toBe(403);
  });

  it('accepts the token from Sec-WebSocket-Protocol', async () => {
    const token = tokens.get('plain user') ?? '';
    const ok = await t.get('/v2/authenticated-user', {
      headers: { 'sec-websocket-protocol': `jwt.token.${token},daml.ws.auth` },
    });
    expect(ok.json.user.id).toBe('plain');
    // A leading space keeps the element from being recognised.
    const ignored = await t.get('/v2/authenticated-user', {
      headers: { 'sec-websocket-protocol': `daml.ws.auth, jwt.token.${token}` },
    });
    expect(ignored.status).toBe(401);
  });

  it('refuses IdP tokens with the wrong audience and tokens of a deactivated IdP', async () => {
    const wrongAudience = await idp.token('admin-A', {
      issuer: 'https://issuer-A.example',
      audience: 'someone-else',
    });
    expect((await t.get('/v2/users', { token: wrongAudience })).status).toBe(401);
    const admin = as('participant admin');
    await t.patch(
      '/v2/idps/idp-B',
      {
        identityProviderConfig: { identityProviderId: 'idp-B', isDeactivated: true },
        updateMask: { paths: ['is_deactivated'] },
      },
      admin,
    );
    expect((await t.get('/v2/users', as('IdP admin of B'))).status).toBe(401);
    await t.patch(
      '/v2/idps/idp-B',
      {
        identityProviderConfig: { identityProviderId: 'idp-B', isDeactivated: false },
        updateMask: { paths: ['is_deactivated'] },
      },
      admin,
    );
    expect((await t.get('/v2/users', as('IdP admin of B'))).status).toBe(200);
  });

  it('refuses HS256 tokens signed with another secret and tokens without the ledger API scope', async () => {
    expect(
      (
        await t.get('/v2/users', {
          token: await hs256Token('participant_admin', { secret: 'wrong' }),
        })
      ).status,
    ).toBe(401);
    const noScope = await hs256Token('participant_admin', { claims: {} });
    expect((await t.get('/v2/users', { token: noScope })).status).toBe(401);
    const audience = await hs256Token('participant_admin', {
      claims: { aud: `https://daml.com/jwt/aud/participant/${t.state.participantId}` },
    });
    expect((await t.get('/v2/users', { token: audience })).status).toBe(200);
    const otherParticipant = await hs256Token('participant_admin', {
      claims: { aud: 'https://daml.com/jwt/aud/participant/elsewhere::1220ab' },
    });
    expect((await t.get('/v2/users', { token: otherParticipant })).status).toBe(403);
  });

  it('answers INVALID_TOKEN for a token whose subject is no valid user id', async () => {
    expectError(
      await t.get('/v2/users', { token: await hs256Token('bad user') }),
      400,
      'INVALID_TOKEN',
    );
  });

  it('keeps users from deleting themselves or revoking their own admin right', async () => {
    const admin = as('participant admin');
    expect(
      expectError(await t.delete('/v2/users/participant_admin', admin), 400, 'INVALID_ARGUMENT')
        .cause,
    ).toContain('Requesting user cannot delete itself');
    const revoke = await t.patch(
      '/v2/users/participant_admin/rights',
      { userId: 'participant_admin', rights: [plainRight('ParticipantAdmin')] },
      admin,
    );
    expect(expectError(revoke, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Requesting user cannot remove own admin rights',
    );
  });

  // §4.7: an IdP admin manages the users of its own IdP only.
  it('lets an IdP admin update, deactivate and delete users of its IdP, and no others', async () => {
    const asAdminA = as('IdP admin of A');
    await t.post(
      '/v2/users',
      { user: { id: 'leaver-a', identityProviderId: 'idp-A' } },
      as('participant admin'),
    );
    const deactivate = (id: string, identityProviderId: string) =>
      t.patch(
        `/v2/users/${id}`,
        {
          user: { id, isDeactivated: true, identityProviderId },
          updateMask: { paths: ['is_deactivated'] },
        },
        asAdminA,
      );
    const deactivated = await deactivate('leaver-a', '');
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.json.user).toMatchObject({
      isDeactivated: true,
      identityProviderId: 'idp-A',
    });
    expectError(await deactivate('plain', ''), 403, 'NA');
    expectError(await deactivate('plain', 'idp-B'), 403, 'NA');
    expectError(await t.delete('/v2/users/plain', asAdminA), 403, 'NA');
    expectError(
      await t.post(
        '/v2/users/plain/rights',
        { userId: 'plain', rights: [plainRight('IdentityProviderAdmin')] },
        asAdminA,
      ),
      403,
      'NA',
    );
    expectError(
      await t.patch(
        '/v2/users/plain/rights',
        { userId: 'plain', rights: [canActAs(partyOfPlain)] },
        asAdminA,
      ),
      403,
      'NA',
    );
    expectError(await t.get('/v2/users/plain/rights', asAdminA), 403, 'NA');
    // An id another IdP holds is refused as not this admin's, not as "already exists" (409).
    expectError(
      await t.post('/v2/users', { user: { id: 'plain' }, rights: [] }, asAdminA),
      403,
      'NA',
    );
    expect((await t.delete('/v2/users/leaver-a', asAdminA)).status).toBe(200);
    expectError(await t.get('/v2/users/leaver-a', as('participant admin')), 404, 'USER_NOT_FOUND');
  });

  // §4.7: CanActAs/CanReadAs only over parties of the caller's IdP; IdentityProviderAdmin is fine;
  // ParticipantAdmin and the *AnyParty rights are refused on create, grant and revoke alike.
  it('lets an IdP admin grant IdentityProviderAdmin and rights over its own parties only', async () => {
    const asAdminA = as('IdP admin of A');
    await t.post(
      '/v2/users',
      { user: { id: 'helper-a', identityProviderId: 'idp-A' } },
      as('participant admin'),
    );
    const change = (method: 'post' | 'patch', rights: unknown[]) =>
      t[method]('/v2/users/helper-a/rights', { userId: 'helper-a', rights }, asAdminA);
    const granted = await change('post', [
      plainRight('IdentityProviderAdmin'),
      canReadAs(partyOfA),
    ]);
    expect(granted.status, granted.text).toBe(200);
    expect(granted.json.newlyGrantedRights).toHaveLength(2);
    const foreignRead = expectError(
      await change('post', [canReadAs(partyOfPlain)]),
      404,
      'UNKNOWN_RESOURCE',
    );
    expect(foreignRead.cause).toContain(partyOfPlain);
    for (const kind of [
      'ParticipantAdmin',
      'CanActAsAnyParty',
      'CanReadAsAnyParty',
      'CanExecuteAsAnyParty',
    ] as const) {
      expectError(await change('post', [plainRight(kind)]), 403, 'NA');
      expectError(await change('patch', [plainRight(kind)]), 403, 'NA');
      expectError(
        await t.post(
          '/v2/users',
          { user: { id: `any-${kind.toLowerCase()}` }, rights: [plainRight(kind)] },
          asAdminA,
        ),
        403,
        'NA',
      );
    }
    const revoked = await change('patch', [plainRight('IdentityProviderAdmin')]);
    expect(revoked.json.newlyRevokedRights).toEqual([plainRight('IdentityProviderAdmin')]);
  });

  // §4.7: IdP configs are participant-admin business, the caller's own included; so is moving users.
  it('refuses an IdP admin its own IdP configuration and moving users between IdPs', async () => {
    const asAdminA = as('IdP admin of A');
    expectError(await t.get('/v2/idps/idp-A', asAdminA), 403, 'NA');
    expectError(
      await t.patch(
        '/v2/users/member-a/identity-provider-id',
        { userId: 'member-a', sourceIdentityProviderId: 'idp-A', targetIdentityProviderId: '' },
        asAdminA,
      ),
      403,
      'NA',
    );
  });

  // §5.1, §5.2, §4.7: allocation lands in the IdP admin's IdP; a userId gets CanActAs, but only a
  // user of that IdP; listings show other IdPs' parties blinded.
  it('lets an IdP admin allocate into its IdP, for a user of its IdP only', async () => {
    const asAdminA = as('IdP admin of A');
    await t.post(
      '/v2/users',
      { user: { id: 'trader-a', identityProviderId: 'idp-A' } },
      as('participant admin'),
    );
    const allocated = await t.post(
      '/v2/parties',
      { partyIdHint: 'TraderA', userId: 'trader-a' },
      asAdminA,
    );
    expect(allocated.status, allocated.text).toBe(200);
    const party = allocated.json.partyDetails.party as string;
    expect(allocated.json.partyDetails).toMatchObject({
      isLocal: true,
      identityProviderId: 'idp-A',
    });
    expect((await t.get('/v2/users/trader-a/rights', asAdminA)).json.rights).toEqual([
      canActAs(party),
    ]);
    const forForeignUser = await t.post(
      '/v2/parties',
      { partyIdHint: 'ForPlain', userId: 'plain' },
      asAdminA,
    );
    expect(forForeignUser.status).not.toBe(200);
    expect(
      (await t.get('/v2/parties?filter-party=ForPlain', as('participant admin'))).json.partyDetails,
    ).toEqual([]);
    expect((await t.get('/v2/users/plain/rights', as('participant admin'))).json.rights).toEqual([
      canActAs(partyOfPlain),
    ]);
    const listed = (await t.get('/v2/parties', asAdminA)).json.partyDetails as {
      party: string;
      isLocal: boolean;
      identityProviderId: string;
    }[];
    expect(listed.find((p) => p.party === partyOfPlain)).toMatchObject({
      isLocal: false,
      identityProviderId: '',
      localMetadata: { resourceVersion: '', annotations: {} },
    });
    expect(listed.find((p) => p.party === party)).toMatchObject({
      isLocal: true,
      identityProviderId: 'idp-A',
    });
  });
});
