import { describe, expect, it } from 'vitest';
import { expectError, sandboxPerTest } from '../testing/test-client';

const t = sandboxPerTest();

const config = (id: string, overrides: Record<string, unknown> = {}) => ({
  identityProviderId: id,
  issuer: `https://issuer.example/${id}`,
  jwksUrl: `https://issuer.example/${id}/jwks`,
  ...overrides,
});
const createIdp = (id: string, overrides: Record<string, unknown> = {}) =>
  t.post('/v2/idps', { identityProviderConfig: config(id, overrides) });

describe('identity provider configs', () => {
  it('creates, gets and lists configs ordered by id, without the default IdP', async () => {
    const created = await createIdp('idp-b', { audience: 'console' });
    expect(created.json).toEqual({
      identityProviderConfig: {
        identityProviderId: 'idp-b',
        isDeactivated: false,
        issuer: 'https://issuer.example/idp-b',
        jwksUrl: 'https://issuer.example/idp-b/jwks',
        audience: 'console',
      },
    });
    await createIdp('idp-a');
    expect((await t.get('/v2/idps/idp-b')).json.identityProviderConfig.audience).toBe('console');
    const list = await t.get('/v2/idps');
    expect(
      list.json.identityProviderConfigs.map(
        (c: { identityProviderId: string }) => c.identityProviderId,
      ),
    ).toEqual(['idp-a', 'idp-b']);
  });

  it('validates id, issuer and JWKS URL', async () => {
    expect(expectError(await t.post('/v2/idps', {}), 400, 'MISSING_FIELD').cause).toContain(
      'identity_provider_config',
    );
    expect(expectError(await createIdp(''), 400, 'MISSING_FIELD').cause).toContain(
      'identity_provider_id',
    );
    expectError(await createIdp('!@'), 400, 'INVALID_FIELD');
    expect(expectError(await createIdp('x', { issuer: '' }), 400, 'MISSING_FIELD').cause).toContain(
      'issuer',
    );
    expect(
      expectError(await createIdp('x', { jwksUrl: '' }), 400, 'MISSING_FIELD').cause,
    ).toContain('jwks_url');
    expect(
      expectError(await createIdp('x', { jwksUrl: 'url.com' }), 400, 'INVALID_FIELD').cause,
    ).toBe(
      'The submitted command has a field with invalid value: Invalid field jwks_url: Malformed URL: URI is not absolute',
    );
    // The issuer is not checked to be a URL, and ids may hold LedgerString punctuation.
    expect((await createIdp('idp-id-#:-_ 1', { issuer: 'plain-issuer' })).status).toBe(200);
  });

  it('answers 409 for a taken id or issuer', async () => {
    await createIdp('one');
    expect(expectError(await createIdp('one'), 409, 'IDP_CONFIG_ALREADY_EXISTS').cause).toBe(
      'creating identity provider config failed, as identity provider "one" already exists',
    );
    const issuer = expectError(
      await createIdp('two', { issuer: 'https://issuer.example/one' }),
      409,
      'IDP_CONFIG_ISSUER_ALREADY_EXISTS',
    );
    expect(issuer.resources).toEqual([['IDENTITY_PROVIDER_CONFIG', 'https://issuer.example/one']]);
  });

  it('allows at most 16 configs', async () => {
    for (let i = 0; i < 16; i++) expect((await createIdp(`idp${String(i)}`)).status).toBe(200);
    const error = expectError(await createIdp('idp16'), 400, 'TOO_MANY_IDENTITY_PROVIDER_CONFIGS');
    expect(error.cause).toBe('creating identity provider config failed.');
  });

  it('updates only what the mask names', async () => {
    await createIdp('upd', { audience: 'aud' });
    const updated = await t.patch('/v2/idps/upd', {
      identityProviderConfig: {
        identityProviderId: 'upd',
        isDeactivated: true,
        issuer: '',
        jwksUrl: '',
        audience: '',
      },
      updateMask: { paths: ['is_deactivated', 'audience'] },
    });
    expect(updated.json.identityProviderConfig).toEqual({
      identityProviderId: 'upd',
      isDeactivated: true,
      issuer: 'https://issuer.example/upd',
      jwksUrl: 'https://issuer.example/upd/jwks',
      audience: '',
    });
  });

  it('rejects bad masks, taken issuers and unknown ids on update', async () => {
    await createIdp('a');
    await createIdp('b');
    const patch = (id: string, body: Record<string, unknown>, paths: string[]) =>
      t.patch(`/v2/idps/${id}`, {
        identityProviderConfig: { identityProviderId: id, ...body },
        updateMask: { paths },
      });
    expect(
      expectError(await patch('a', {}, []), 400, 'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST').cause,
    ).toBe(
      "Update operation for identity provider config 'a' failed due to: The update mask contains no entries",
    );
    expectError(await patch('a', {}, ['nope']), 400, 'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST');
    expectError(
      await patch('a', { issuer: 'https://issuer.example/b' }, ['issuer']),
      409,
      'IDP_CONFIG_ISSUER_ALREADY_EXISTS',
    );
    expect(
      expectError(await patch('zz', {}, ['audience']), 404, 'IDP_CONFIG_NOT_FOUND').cause,
    ).toBe('updating identity provider config failed for unknown identity provider id="zz"');
    const mismatch = await t.patch('/v2/idps/a', {
      identityProviderConfig: config('b'),
      updateMask: { paths: ['audience'] },
    });
    expect(expectError(mismatch, 400, 'INVALID_ARGUMENT').cause).toContain(
      'a does not match idp in body: Some(IdentityProviderConfig(b,',
    );
  });

  it('answers IDP_CONFIG_NOT_FOUND on get and delete', async () => {
    expect(expectError(await t.get('/v2/idps/ghost'), 404, 'IDP_CONFIG_NOT_FOUND').cause).toBe(
      'getting identity provider config failed for unknown identity provider id="ghost"',
    );
    expect(expectError(await t.delete('/v2/idps/ghost'), 404, 'IDP_CONFIG_NOT_FOUND').cause).toBe(
      'deleting identity provider config failed for unknown identity provider id="ghost"',
    );
  });

  it('deletes an unused config, but not one that users still belong to', async () => {
    await createIdp('gone');
    expect((await t.delete('/v2/idps/gone')).json).toEqual({});
    expectError(await t.get('/v2/idps/gone'), 404, 'IDP_CONFIG_NOT_FOUND');
    await createIdp('busy');
    await t.post('/v2/users', { user: { id: 'member', identityProviderId: 'busy' } });
    const refused = expectError(await t.delete('/v2/idps/busy'), 500, 'NA');
    expect(refused.grpcCodeValue).toBe(13);
    expect((await t.get('/v2/idps/busy')).status).toBe(200);
  });

  it('moves a user between IdPs without bumping its version', async () => {
    await createIdp('target');
    await t.post('/v2/users', { user: { id: 'mover' } });
    const move = await t.patch('/v2/users/mover/identity-provider-id', {
      userId: 'mover',
      sourceIdentityProviderId: '',
      targetIdentityProviderId: 'target',
    });
    expect(move.json).toEqual({});
    const moved = await t.get('/v2/users/mover?identity-provider-id=target');
    expect(moved.json.user).toMatchObject({
      identityProviderId: 'target',
      metadata: { resourceVersion: '0' },
    });
    // The JSON API reads rights and deletes through the default IdP only (§2.7).
    expectError(await t.get('/v2/users/mover'), 403, 'NA');
    expectError(await t.get('/v2/users/mover/rights'), 403, 'NA');
    const wrongSource = await t.patch('/v2/users/mover/identity-provider-id', {
      userId: 'mover',
      sourceIdentityProviderId: '',
      targetIdentityProviderId: 'target',
    });
    expectError(wrongSource, 403, 'NA');
    const unknownTarget = await t.patch('/v2/users/mover/identity-provider-id', {
      userId: 'mover',
      sourceIdentityProviderId: 'target',
      targetIdentityProviderId: 'nowhere',
    });
    expect(expectError(unknownTarget, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Id(nowhere) has not been found',
    );
  });
});
