import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyCall, READ_ONLY_POSTS } from './audit-actions';

// Every non-GET operation of Canton's published JSON Ledger API (the repo's derived copy of its
// OpenAPI document) is either recorded under a named action or listed as a read-only POST.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const facts = JSON.parse(
  readFileSync(path.join(ROOT, 'sandbox/src/spec/canton-api-facts.json'), 'utf8'),
) as { http: { paths: Record<string, Record<string, unknown>> } };

const operations = Object.entries(facts.http.paths).flatMap(([template, methods]) =>
  Object.keys(methods)
    .filter((method) => method !== 'get')
    .map((method) => ({
      method: method.toUpperCase(),
      // A concrete path: what a caller sends for {user-id}, {party}, {idp-id}.
      path: template.replace(/\{[^}]+\}/g, 'some%3Aid'),
      template,
    })),
);

describe('classifyCall against the OpenAPI document', () => {
  it('knows every state-changing operation by name, and every read-only POST', () => {
    expect(operations.length).toBeGreaterThan(40);
    const unnamed = operations.filter(
      ({ method, path: p }) => classifyCall(method, p)?.action === 'other',
    );
    expect(unnamed).toEqual([]);
  });

  it('records exactly these operations', () => {
    const recorded = operations
      .map(({ method, path: p, template }) => [
        `${method} ${template}`,
        classifyCall(method, p)?.action ?? 'not recorded',
      ])
      .filter(([, action]) => action !== 'not recorded')
      .sort(([a = ''], [b = '']) => a.localeCompare(b));
    expect(Object.fromEntries(recorded)).toEqual({
      'DELETE /v2/idps/{idp-id}': 'idp.delete',
      'DELETE /v2/users/{user-id}': 'user.delete',
      'PATCH /v2/idps/{idp-id}': 'idp.update',
      'PATCH /v2/parties/{party}': 'party.update',
      'PATCH /v2/users/{user-id}': 'user.update',
      'PATCH /v2/users/{user-id}/identity-provider-id': 'user.idp.move',
      'PATCH /v2/users/{user-id}/rights': 'user.rights.revoke',
      'POST /v2/commands/async/submit': 'command.submit',
      'POST /v2/commands/async/submit-reassignment': 'command.reassign',
      'POST /v2/commands/submit-and-wait': 'command.submit',
      'POST /v2/commands/submit-and-wait-for-reassignment': 'command.reassign',
      'POST /v2/commands/submit-and-wait-for-transaction': 'command.submit',
      'POST /v2/commands/submit-and-wait-for-transaction-tree': 'command.submit',
      'POST /v2/dars': 'dar.upload',
      'POST /v2/idps': 'idp.create',
      'POST /v2/interactive-submission/execute': 'command.execute',
      'POST /v2/interactive-submission/executeAndWait': 'command.execute',
      'POST /v2/interactive-submission/executeAndWaitForTransaction': 'command.execute',
      'POST /v2/interactive-submission/prepare': 'command.prepare',
      'POST /v2/package-vetting': 'package.vetting',
      'POST /v2/package-vetting/update': 'package.vetting',
      'POST /v2/packages': 'dar.upload',
      'POST /v2/parties': 'party.allocate',
      'POST /v2/parties/external/allocate': 'party.external.allocate',
      'POST /v2/users': 'user.create',
      'POST /v2/users/{user-id}/rights': 'user.rights.grant',
    });
  });

  it('lists only read-only POSTs the API has', () => {
    const posts = new Set(operations.filter((op) => op.method === 'POST').map((op) => op.template));
    const unknown = READ_ONLY_POSTS.filter((p) => !posts.has(p));
    expect(unknown).toEqual([]);
  });
});

describe('classifyCall', () => {
  it('never records safe methods', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
      expect(classifyCall(method, '/v2/users')).toBeUndefined();
    }
  });

  it('names the resource of the path, decoded', () => {
    expect(classifyCall('PATCH', '/v2/parties/alice%3A%3A1220ab/')).toEqual({
      action: 'party.update',
      pathResource: 'alice::1220ab',
    });
    expect(classifyCall('DELETE', '/v2/users/%E0%A4%A')).toEqual({
      action: 'user.delete',
      pathResource: '%E0%A4%A',
    });
  });

  it('records unknown and odd non-GET calls as other: a change must not slip through', () => {
    expect(classifyCall('POST', '/v2/some/new/endpoint')).toEqual({
      action: 'other',
      pathResource: null,
    });
    expect(classifyCall('PUT', '/v2/users')).toEqual({ action: 'other', pathResource: null });
    expect(classifyCall('POST', '/__sandbox/tokens')).toEqual({
      action: 'other',
      pathResource: null,
    });
  });
});
