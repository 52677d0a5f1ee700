import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { discoverIssuer } from './oidc-discovery';

const ISSUER = 'https://login.example.com/realms/x';
const good = {
  issuer: ISSUER,
  jwksUrl: `${ISSUER}/certs`,
  jwks: { keys: [{ kid: 'k', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'secret-ish' }] },
  checks: [{ name: 'Issuer', status: 'ok', detail: 'matches' }],
};

function serve(status: number, body: unknown) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Promise.resolve(
      typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }),
    );
  });
  return requests;
}

describe("the console server's discovery of an issuer", () => {
  it('asks for exactly that issuer and keeps only kid, kty, alg and use of each key', async () => {
    const requests = serve(200, good);
    expect(await discoverIssuer(ISSUER)).toEqual({
      issuer: ISSUER,
      jwksUrl: `${ISSUER}/certs`,
      keys: [{ kid: 'k', kty: 'RSA', alg: 'RS256', use: 'sig' }],
      checks: [{ name: 'Issuer', status: 'ok', detail: 'matches' }],
    });
    const url = new URL(requests[0]?.url ?? '');
    expect(url.pathname).toBe('/__console/oidc-discovery');
    expect(url.searchParams.get('issuer')).toBe(ISSUER);
  });

  it.each([
    ['another issuer', { ...good, issuer: 'https://evil.example' }],
    ['a script URL for the keys', { ...good, jwksUrl: 'javascript:alert(1)' }],
    ['an unknown check status', { ...good, checks: [{ name: 'x', status: 'great', detail: '' }] }],
    ['no key list', { ...good, jwks: {} }],
  ])('refuses an answer with %s', async (_, body) => {
    serve(200, body);
    const error = await discoverIssuer(ISSUER).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body.cause).toBe(
      'The console server sent an unreadable discovery answer',
    );
  });

  it("passes the server's error on, and explains a page served without the console server", async () => {
    serve(403, {
      code: 'LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED',
      cause: 'admins only',
      errorCategory: 7,
    });
    await expect(discoverIssuer(ISSUER)).rejects.toMatchObject({
      status: 403,
      code: 'LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED',
    });
    serve(404, 'Not Found');
    const error = (await discoverIssuer(ISSUER).catch((caught: unknown) => caught)) as ApiError;
    expect(error.body.cause).toContain('needs the console server');
  });
});
