import { describe, expect, it } from 'vitest';
import { expectDecodeFailure, expectError, sandboxPerTest } from '../testing/test-client';
import { KNOWN_ENDPOINTS } from '../http/known-endpoints';

const t = sandboxPerTest();

describe('version, health and the HTTP edges', () => {
  it('reports version 3.5.7 with the real feature descriptor', async () => {
    const { json } = await t.get('/v2/version');
    expect(json.version).toBe('3.5.7');
    expect(json.features.userManagement).toEqual({
      supported: true,
      maxRightsPerUser: 1000,
      maxUsersPageSize: 1000,
    });
    expect(json.features.partyManagement).toEqual({ maxPartiesPageSize: 10000 });
  });

  it('answers /livez with an empty 200 and /readyz with the plain-text check', async () => {
    const live = await t.get('/livez');
    expect(live.status).toBe(200);
    expect(live.text).toBe('');
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.contentType).toContain('text/plain');
    expect(ready.text).toBe('[+] ledger ok (SERVING)\nreadyz check passed\n');
  });

  it('answers unknown paths with the legacy 404 shape', async () => {
    const result = await t.get('/v2/nothing-here');
    expect(result.status).toBe(404);
    expect(result.json).toEqual({
      errors: ['HttpMethod(GET), uri: http://sandbox.test/v2/nothing-here'],
      status: 404,
      ledgerApiError: null,
    });
  });

  it('answers 405 for another method on a real path', async () => {
    const result = await t.call('PUT', '/v2/users');
    expect(result.status).toBe(405);
    expect(result.text).toBe('Method Not Allowed');
  });

  it('serves every operation of Canton 3.5 (none answers 501 SANDBOX_UNSUPPORTED_ENDPOINT)', async () => {
    // Path parameters get a value of the right shape; the body is empty JSON, so most answers are
    // validation errors, which is enough to show that a route, not the 501 fallback, answered.
    const unsupported: string[] = [];
    for (const [method, path] of KNOWN_ENDPOINTS) {
      const concrete = path.replace(/\{[^}]+\}/g, (name) => (name === '{offset}' ? '1' : 'x'));
      const result = await t.call(method, concrete, method === 'GET' ? {} : { body: {} });
      if (result.status === 501 || result.json?.code === 'SANDBOX_UNSUPPORTED_ENDPOINT') {
        unsupported.push(`${method} ${path}`);
      }
    }
    expect(KNOWN_ENDPOINTS.length).toBe(67);
    expect(unsupported).toEqual([]);
  });

  it('carries the trace id of a traceparent header into errors', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const result = await t.get('/v2/users/nobody', {
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    const error = expectError(result, 404, 'USER_NOT_FOUND');
    expect(result.json.traceId).toBe(traceId);
    expect(error.context.tid).toBe(traceId);
  });

  it('rejects JSON with a trailing garbage character as text/plain', async () => {
    const result = await t.call('POST', '/v2/users', { rawBody: '{"user":{"id":"a"}} x' });
    expectDecodeFailure(
      result,
      "Invalid value for: body (expected json value got 'x' (line 1, column 21))",
    );
  });
});
