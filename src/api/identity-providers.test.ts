import { describe, expect, it } from 'vitest';
import { routeFetchToSandbox } from '@/testing/sandbox-network';
import {
  createIdentityProvider,
  createIdentityProviderRequest,
  deleteIdentityProvider,
  deleteIdentityProviderRequest,
  updateIdentityProvider,
  updateIdentityProviderRequest,
  type IdentityProviderConfig,
  type UpdateIdentityProviderConfigRequest,
} from './identity-providers';

type Sent = { method: string; path: string; body: unknown };

/**
 * Every Ledger API request the API client sends, as method, raw path and parsed body (not the
 * console's own questions to its server, tokenless-access.ts).
 */
function recordRequests() {
  const sent: Sent[] = [];
  routeFetchToSandbox({
    intercept: async (request, sandboxFetch) => {
      const text = await request.clone().text();
      if (!new URL(request.url).pathname.startsWith('/v2/')) return sandboxFetch(request);
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      return sandboxFetch(request);
    },
  });
  return sent;
}

// An id with a space and a slash: the path must be encoded the same way by builder and client.
const config: IdentityProviderConfig = {
  identityProviderId: 'acme corp/1',
  isDeactivated: false,
  issuer: 'https://auth.acme.test',
  jwksUrl: 'https://auth.acme.test/jwks.json',
  audience: 'ledger',
};

describe('identity provider requests', () => {
  it('send exactly what their builders describe (what "Copy as…" copies)', async () => {
    const sent = recordRequests();
    const update: UpdateIdentityProviderConfigRequest = {
      identityProviderConfig: {
        ...config,
        issuer: '',
        jwksUrl: 'https://keys.test/k',
        audience: '',
      },
      updateMask: { paths: ['jwks_url'], unknownFields: { fields: {} } },
    };

    await createIdentityProvider(config);
    await updateIdentityProvider(update);
    await deleteIdentityProvider(config.identityProviderId);

    expect(sent).toEqual([
      createIdentityProviderRequest(config),
      updateIdentityProviderRequest(update),
      { ...deleteIdentityProviderRequest(config.identityProviderId), body: undefined },
    ]);
    expect(sent.map(({ path }) => path)).toEqual([
      '/v2/idps',
      '/v2/idps/acme%20corp%2F1',
      '/v2/idps/acme%20corp%2F1',
    ]);
  });
});
