import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { CORP_PROVIDER } from '@/testing/sign-in-providers';
import { listSignInProviders } from './sign-in-providers';

const provider = {
  ...CORP_PROVIDER,
  oidc: {
    ...CORP_PROVIDER.oidc,
    extraQueryParams: { audience: 'https://daml.com/jwt/aud/participant/p::1220' },
  },
};

function serve(status: number, body: unknown) {
  vi.stubGlobal('fetch', () => Promise.resolve(Response.json(body, { status })));
}

describe('the sign-in providers the console server serves', () => {
  it('are read as they are, and none where the server has no such endpoint', async () => {
    serve(200, { providers: [provider] });
    expect(await listSignInProviders()).toEqual([provider]);
    serve(404, { code: 'NOT_FOUND' });
    expect(await listSignInProviders()).toEqual([]);
  });

  it.each([
    [
      'a script URL as issuer',
      { ...provider, oidc: { ...provider.oidc, authority: 'javascript:alert(1)' } },
    ],
    ['a missing client id', { ...provider, oidc: { ...provider.oidc, client_id: '' } }],
    [
      'a non-text parameter',
      { ...provider, oidc: { ...provider.oidc, extraQueryParams: { a: 1 } } },
    ],
    ['an overlong name', { ...provider, name: 'n'.repeat(201) }],
    ['no oidc settings', { ...provider, oidc: null }],
  ])('refuses the whole list for %s', async (_, bad) => {
    serve(200, { providers: [provider, bad] });
    const error = await listSignInProviders().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body.cause).toBe(
      'The console server sent an unreadable provider list',
    );
  });
});
