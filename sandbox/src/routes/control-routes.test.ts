import { afterEach, describe, expect, it } from 'vitest';
import { createTestSandbox, expectError, type TestSandbox } from '../testing/test-client';
import { TEST_SECRET } from '../testing/tokens';

let t: TestSandbox | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const jwtSandbox = () => (t = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET }));

/** Creates the IdP `acme` and its IdP admin `acme-admin`; gives the participant admin's token. */
async function addAcmeAdmin(
  s: TestSandbox,
  { audience, isDeactivated }: { audience?: string; isDeactivated?: boolean },
) {
  const adminToken = (await s.post('/__sandbox/tokens', { userId: 'participant_admin' })).json
    .token;
  await s.post(
    '/v2/idps',
    {
      identityProviderConfig: {
        identityProviderId: 'acme',
        issuer: 'https://idp.acme.example',
        jwksUrl: 'https://idp.acme.example/jwks.json',
        ...(audience === undefined ? {} : { audience }),
      },
    },
    { token: adminToken },
  );
  await s.post(
    '/v2/users',
    {
      user: {
        id: 'acme-admin',
        identityProviderId: 'acme',
        ...(isDeactivated === undefined ? {} : { isDeactivated }),
      },
      rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }],
    },
    { token: adminToken },
  );
  return adminToken as string;
}

describe('sandbox controls', () => {
  it('say whether the sandbox can mint tokens', async () => {
    t = createTestSandbox();
    expect((await t.get('/__sandbox/info')).json).toEqual({
      sandbox: true,
      auth: 'none',
      canMintTokens: false,
    });
    t.close();
    expect((await jwtSandbox().get('/__sandbox/info')).json).toMatchObject({
      auth: 'jwt',
      canMintTokens: true,
    });
  });

  it('mint a default-IdP token that the participant accepts as that user', async () => {
    const s = jwtSandbox();
    const admin = await s.post('/__sandbox/tokens', { userId: 'participant_admin' });
    expect(admin.status).toBe(200);
    await s.post(
      '/v2/users',
      { user: { id: 'bob', identityProviderId: '' }, rights: [] },
      { token: admin.json.token },
    );
    const minted = await s.post('/__sandbox/tokens', { userId: 'bob' });
    expect(minted.json).toMatchObject({ userId: 'bob', identityProviderId: '' });
    const me = await s.get('/v2/authenticated-user', { token: minted.json.token });
    expect(me.status).toBe(200);
    expect(me.json.user.id).toBe('bob');
    // bob has no admin right: the token really is his, not a privileged one.
    expect((await s.get('/v2/users', { token: minted.json.token })).status).toBe(403);
  });

  it('mint an IdP user token that resolves to that IdP, with its issuer and audience', async () => {
    const s = jwtSandbox();
    const adminToken = await addAcmeAdmin(s, { audience: 'https://ledger.acme.example' });
    const minted = await s.post('/__sandbox/tokens', { userId: 'acme-admin' });
    const [, payload] = (minted.json.token as string).split('.');
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())).toMatchObject({
      sub: 'acme-admin',
      iss: 'https://idp.acme.example',
      aud: 'https://ledger.acme.example',
    });
    const token = minted.json.token as string;
    const me = await s.get('/v2/authenticated-user', { token });
    expect(me.json.user).toMatchObject({ id: 'acme-admin', identityProviderId: 'acme' });
    // An IdP admin sees its own IdP's users and nobody else's.
    expect((await s.get('/v2/users?identity-provider-id=acme', { token })).status).toBe(200);
    expect((await s.get('/v2/users?identity-provider-id=', { token })).json.users).toEqual([
      expect.objectContaining({ id: 'acme-admin' }),
    ]);

    // A deactivated IdP accepts no tokens, minted or not.
    await s.patch(
      '/v2/idps/acme',
      {
        identityProviderConfig: {
          identityProviderId: 'acme',
          isDeactivated: true,
          issuer: '',
          jwksUrl: '',
        },
        updateMask: { paths: ['is_deactivated'] },
      },
      { token: adminToken },
    );
    expect((await s.get('/v2/authenticated-user', { token })).status).toBe(401);
    expectError(
      await s.post('/__sandbox/tokens', { userId: 'acme-admin' }),
      409,
      'SANDBOX_CANNOT_MINT_TOKEN',
    );
  });

  it('list every user of every IdP with the kinds of rights, to pick whom to sign in as', async () => {
    const s = jwtSandbox();
    await addAcmeAdmin(s, { isDeactivated: true });
    expect((await s.get('/__sandbox/users')).json.users).toEqual([
      {
        id: 'participant_admin',
        identityProviderId: '',
        isDeactivated: false,
        rightKinds: ['ParticipantAdmin'],
      },
      {
        id: 'acme-admin',
        identityProviderId: 'acme',
        isDeactivated: true,
        rightKinds: ['IdentityProviderAdmin'],
      },
    ]);
  });

  it('refuse unknown users, bad bodies, and minting without jwt auth', async () => {
    const s = jwtSandbox();
    expectError(await s.post('/__sandbox/tokens', { userId: 'nobody' }), 404, 'USER_NOT_FOUND');
    expectError(await s.post('/__sandbox/tokens', { userId: '' }), 400, 'INVALID_ARGUMENT');
    expectError(
      await s.call('POST', '/__sandbox/tokens', { rawBody: '{oops' }),
      400,
      'INVALID_ARGUMENT',
    );
    s.close();
    t = createTestSandbox();
    expectError(
      await t.post('/__sandbox/tokens', { userId: 'participant_admin' }),
      409,
      'SANDBOX_CANNOT_MINT_TOKEN',
    );
  });
});
