import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuditEntry } from '@ledger-console/edge/console-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src/index';
import { JS_CANTON_ERROR_KEYS } from '../../../sandbox/src/testing/index';
import {
  callLedger,
  newUser,
  readAudit,
  startAuditedConsole,
  tinyDist,
  type AuditedConsole,
} from './audit-testing';

// The audit log over real loopback HTTP: a console with a file-backed log in front of a sandbox
// with --auth oidc (real issuers, so tokens carry iss; the participant says who is an admin).

let distDir: string;
let dataDir: string;
let sandbox: RunningSandbox;
let consoleApp: AuditedConsole;
let admin: string;
let idpAdmin: string;
let alice: string;
let issuers: { default: string; acme: string };

const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

beforeAll(async () => {
  distDir = await tinyDist();
  dataDir = path.join(tmpdir(), `ledger-console-audit-${randomBytes(4).toString('hex')}`);
  sandbox = await startSandbox({
    port: 0,
    quiet: true,
    auth: 'oidc',
    seed: 'demo',
    oidc: { port: 0, consoleOrigins: ['http://127.0.0.1:4999'] },
  });
  const oidc = sandbox.oidc;
  if (!oidc) throw new Error('no provider in oidc mode');
  issuers = { default: oidc.issuers.default.issuer, acme: oidc.issuers.acme.issuer };
  admin = await oidc.issueAccessToken('default', 'participant_admin');
  idpAdmin = await oidc.issueAccessToken('acme', 'acme-admin');
  alice = await oidc.issueAccessToken('default', 'alice.anderson');
  consoleApp = await startAuditedConsole(
    distDir,
    sandbox.url,
    { location: { kind: 'file', path: path.join(dataDir, 'audit.db') } },
    { proxy: { maxRequestBytes: MAX_REQUEST_BYTES } },
  );
}, 60_000);

afterAll(async () => {
  await consoleApp.close();
  await sandbox.close();
  await rm(distDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** The newest entries, straight from the store (no HTTP, no scoping). */
async function newest(count = 1): Promise<AuditEntry[]> {
  return (await consoleApp.log.read({ kind: 'all' }, {}, count)).entries;
}

describe('recording', () => {
  it('records an admin’s call once the participant answered, before the client has its answer', async () => {
    const call = await callLedger(consoleApp.url, 'POST', '/v2/users', admin, newUser('audit-ann'));
    expect(call.status).toBe(200);

    // No waiting: "the client got its answer" means the entry is already committed.
    const [entry] = await newest();
    expect(entry).toMatchObject({
      participant: sandbox.participantId,
      actor: {
        issuer: issuers.default,
        subject: 'participant_admin',
        userId: 'participant_admin',
        identityProviderId: '',
        authenticated: true,
      },
      action: 'user.create',
      method: 'POST',
      path: '/v2/users',
      resource: 'audit-ann',
      status: 200,
      errorCode: null,
    });
    expect(entry?.summary).toContain('"id":"audit-ann"');
    expect(Date.parse(entry?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records an IdP admin’s call with the identity provider of its user', async () => {
    const call = await callLedger(
      consoleApp.url,
      'POST',
      '/v2/users',
      idpAdmin,
      newUser('audit-acme-bea', 'acme-idp'),
    );
    expect(call.status).toBe(200);
    const [entry] = await newest();
    expect(entry).toMatchObject({
      actor: {
        issuer: issuers.acme,
        subject: 'acme-admin',
        userId: 'acme-admin',
        identityProviderId: 'acme-idp',
        authenticated: true,
      },
      action: 'user.create',
      resource: 'audit-acme-bea',
      status: 200,
    });
  });

  it('records a failed call with the participant’s error code', async () => {
    const again = await callLedger(
      consoleApp.url,
      'POST',
      '/v2/users',
      admin,
      newUser('audit-ann'),
    );
    expect(again.status).toBe(409);
    const [entry] = await newest();
    expect(entry).toMatchObject({
      action: 'user.create',
      status: 409,
      errorCode: 'USER_ALREADY_EXISTS',
      actor: { userId: 'participant_admin' },
    });
  });

  it('records a plain user’s refused attempt as theirs', async () => {
    const call = await callLedger(consoleApp.url, 'PATCH', '/v2/users/audit-ann/rights', alice, {
      userId: 'audit-ann',
      rights: [{ kind: { ParticipantAdmin: { value: {} } } }],
      identityProviderId: '',
    });
    expect(call.status).toBe(403);
    const [entry] = await newest();
    expect(entry).toMatchObject({
      action: 'user.rights.revoke',
      resource: 'audit-ann',
      status: 403,
      actor: { subject: 'alice.anderson', userId: 'alice.anderson', identityProviderId: '' },
    });
    expect(entry?.errorCode).toEqual(expect.any(String));
  });

  it('records a call whose token the participant refused without anyone’s identity', async () => {
    // Well-formed and claiming to be the admin, but not signed by any issuer the participant knows.
    const claims = Buffer.from(
      JSON.stringify({ iss: issuers.default, sub: 'participant_admin', exp: 4_000_000_000 }),
    ).toString('base64url');
    const forged = `eyJhbGciOiJIUzI1NiJ9.${claims}.c2lnbmF0dXJl`;
    for (const token of [forged, null]) {
      const call = await callLedger(consoleApp.url, 'DELETE', '/v2/users/audit-ann', token);
      expect(call.status).toBe(401);
      const [entry] = await newest();
      expect(entry).toMatchObject({
        action: 'user.delete',
        resource: 'audit-ann',
        status: 401,
        actor: {
          issuer: null,
          subject: null,
          userId: null,
          identityProviderId: null,
          authenticated: false,
        },
      });
    }
  });

  it('does not record reads, POSTs that only query included', async () => {
    const before = (await newest())[0]?.id;
    expect((await callLedger(consoleApp.url, 'GET', '/v2/users', admin)).status).toBe(200);
    const acs = await callLedger(consoleApp.url, 'POST', '/v2/state/active-contracts', admin, {
      eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: false },
      activeAtOffset: 0,
    });
    expect(acs.status).toBeLessThan(500);
    const pv = await callLedger(consoleApp.url, 'POST', '/v2/package-vetting/list', admin, {});
    expect(pv.status).toBeLessThan(500);
    expect((await newest())[0]?.id).toBe(before);
  });
});

describe('redaction and bounds', () => {
  it('never stores a token, key or signature, only their sizes', async () => {
    const signature = `SIG${randomBytes(24).toString('base64url')}`;
    const transaction = `TX${randomBytes(48).toString('base64url')}`;
    const publicKey = `KEY${randomBytes(32).toString('base64url')}`;
    const call = await callLedger(consoleApp.url, 'POST', '/v2/parties/external/allocate', admin, {
      synchronizer: 'nowhere::1220',
      onboardingTransactions: [{ transaction }],
      multiHashSignatures: [
        {
          format: 'SIGNATURE_FORMAT_CONCAT',
          signature,
          signedBy: 'fp',
          signingAlgorithmSpec: 'ED25519',
        },
      ],
      identityProviderId: '',
    });
    expect(call.status).toBeGreaterThanOrEqual(400);
    // A token pasted where it does not belong is still a token.
    const pasted = admin;
    const created = await callLedger(
      consoleApp.url,
      'POST',
      '/v2/users',
      admin,
      newUser('audit-redacted', '', { note: pasted, signingKey: publicKey }),
    );
    expect(created.status).toBe(200);

    const [user, external] = await newest(2);
    expect(external?.action).toBe('party.external.allocate');
    expect(external?.summary).toContain('"onboardingTransactions":"<redacted');
    expect(external?.summary).toContain('"multiHashSignatures":"<redacted');
    expect(user?.summary).toContain('"note":"<redacted');
    expect(user?.summary).toContain('"signingKey":"<redacted');
    // Nowhere in the store's files either, WAL included.
    const files = await Promise.all(
      ['audit.db', 'audit.db-wal'].map((name) =>
        readFile(path.join(dataDir, name)).catch(() => Buffer.alloc(0)),
      ),
    );
    const bytes = Buffer.concat(files).toString('latin1');
    expect(bytes).toContain('audit-redacted');
    for (const secret of [signature, transaction, publicKey, admin.split('.')[2] ?? admin]) {
      expect(bytes).not.toContain(secret);
    }
  });

  it('summarises a DAR upload by size and SHA-256, never its bytes', async () => {
    const dar = randomBytes(3000);
    const response = await fetch(`${consoleApp.url}/v2/dars?vetAllPackages=true`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/octet-stream' },
      body: dar,
    });
    await response.text();
    const [entry] = await newest();
    const sha = createHash('sha256').update(dar).digest('hex');
    expect(entry).toMatchObject({
      action: 'dar.upload',
      path: '/v2/dars',
      status: response.status,
    });
    expect(entry?.summary).toBe(`DAR of 2.9 KiB, sha256 ${sha.slice(0, 16)}…`);
  });

  it('keeps huge bodies and odd paths bounded', async () => {
    const huge = { user: { id: 'audit-huge' }, padding: 'x'.repeat(2 * 1024 * 1024) };
    const big = await callLedger(consoleApp.url, 'POST', '/v2/users', admin, huge);
    expect((await newest())[0]).toMatchObject({
      action: 'user.create',
      summary: 'body of 2.0 MiB, not summarised',
      status: big.status,
    });

    const tooBig = await callLedger(
      consoleApp.url,
      'POST',
      '/v2/users',
      admin,
      'x'.repeat(MAX_REQUEST_BYTES + 1),
    );
    expect(tooBig.status).toBe(413);
    expect((await newest())[0]).toMatchObject({
      status: 0,
      errorCode: 'REQUEST_ENTITY_TOO_LARGE',
      actor: { authenticated: false },
    });

    const odd = `/v2/${'%F0%9F%A6%84'.repeat(100)}/${'y'.repeat(4000)}`;
    const call = await callLedger(
      consoleApp.url,
      'POST',
      `${odd}?token=secret-in-query`,
      admin,
      {},
    );
    expect(call.status).toBe(404);
    const [entry] = await newest();
    expect(entry).toMatchObject({ action: 'other', method: 'POST', status: 404 });
    expect(entry?.path.length).toBeLessThanOrEqual(512);
    expect(entry?.path.startsWith(odd.slice(0, 100))).toBe(true);
    expect(JSON.stringify(entry)).not.toContain('secret-in-query');
  });
});

describe(`GET /__console/audit`, () => {
  it('shows a participant admin every entry, refused calls included', async () => {
    const { status, page } = await readAudit(consoleApp.url, admin, { pageSize: '500' });
    expect(status).toBe(200);
    expect(page).toMatchObject({ scope: 'all', identityProviderId: null, store: 'file' });
    expect(page.retention).toEqual({ days: 90, maxEntries: 1_000_000 });
    const actors = new Set(page.entries.map((entry) => entry.actor.userId));
    expect(actors).toEqual(new Set(['participant_admin', 'acme-admin', 'alice.anderson', null]));
  });

  it('shows an IdP admin the entries of its identity provider’s users only', async () => {
    const { status, page } = await readAudit(consoleApp.url, idpAdmin, { pageSize: '500' });
    expect(status).toBe(200);
    expect(page).toMatchObject({ scope: 'identity-provider', identityProviderId: 'acme-idp' });
    expect(page.entries.length).toBeGreaterThan(0);
    expect(page.entries.every((entry) => entry.actor.identityProviderId === 'acme-idp')).toBe(true);
  });

  it('shows a plain user their own entries only', async () => {
    const { status, page } = await readAudit(consoleApp.url, alice, { pageSize: '500' });
    expect(status).toBe(200);
    expect(page).toMatchObject({ scope: 'own', identityProviderId: '' });
    expect(page.entries.length).toBeGreaterThan(0);
    expect(page.entries.every((entry) => entry.actor.userId === 'alice.anderson')).toBe(true);
  });

  it('answers a refused or missing token with the participant’s own 401', async () => {
    for (const token of ['not-a-jwt', null]) {
      const { status, body } = await readAudit(consoleApp.url, token);
      expect(status).toBe(401);
      const direct = await fetch(`${sandbox.url}/v2/authenticated-user`, {
        headers: token === null ? {} : { Authorization: `Bearer ${token}` },
      });
      expect(JSON.parse(body)).toMatchObject({
        code: ((await direct.json()) as { code: string }).code,
      });
    }
  });

  it('pages newest first with opaque tokens, and filters', async () => {
    const seen: AuditEntry[] = [];
    let pageToken = '';
    for (let pages = 0; pages < 50; pages += 1) {
      const { page } = await readAudit(consoleApp.url, admin, {
        pageSize: '2',
        ...(pageToken ? { pageToken } : {}),
      });
      seen.push(...page.entries);
      pageToken = page.nextPageToken;
      if (!pageToken) break;
      expect(page.entries).toHaveLength(2);
    }
    expect(pageToken).toBe('');
    const all = (await readAudit(consoleApp.url, admin, { pageSize: '500' })).page.entries;
    expect(seen.map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
    const ids = all.map((entry) => Number(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const failed = (await readAudit(consoleApp.url, admin, { outcome: 'failed', pageSize: '500' }))
      .page.entries;
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((entry) => entry.status < 200 || entry.status >= 400)).toBe(true);
    const byText = (await readAudit(consoleApp.url, admin, { text: 'AUDIT-ACME' })).page.entries;
    expect(byText.map((entry) => entry.resource)).toEqual(['audit-acme-bea']);
    const byActor = (await readAudit(consoleApp.url, admin, { actor: 'acme-admin' })).page.entries;
    expect(byActor.every((entry) => entry.actor.userId === 'acme-admin')).toBe(true);
    const future = (await readAudit(consoleApp.url, admin, { from: '2999-01-01T00:00:00Z' })).page;
    expect(future.entries).toEqual([]);
    const byAction = (await readAudit(consoleApp.url, admin, { action: 'dar.upload' })).page;
    expect(byAction.entries.map((entry) => entry.action)).toEqual(['dar.upload']);
  });

  it('finds an id by text where the path spells it percent-encoded', async () => {
    const id = 'ann@audit.example';
    expect((await callLedger(consoleApp.url, 'POST', '/v2/users', admin, newUser(id))).status).toBe(
      200,
    );
    // No body: only the path (percent-encoded) and the resource (decoded) name the user.
    const removed = await callLedger(
      consoleApp.url,
      'DELETE',
      `/v2/users/${encodeURIComponent(id)}`,
      admin,
    );
    expect(removed.status).toBe(200);
    const { page } = await readAudit(consoleApp.url, admin, { text: id });
    expect(page.entries.map((entry) => [entry.action, entry.path, entry.resource])).toEqual([
      ['user.delete', '/v2/users/ann%40audit.example', id],
      ['user.create', '/v2/users', id],
    ]);
  });

  it.each([
    [{ pageSize: '0' }, 'pageSize'],
    [{ pageSize: '501' }, 'pageSize'],
    [{ pageToken: 'bm90LW91cnM' }, 'pageToken'],
    [{ from: 'yesterday' }, 'from'],
    [{ action: 'user.hack' }, 'action'],
    [{ outcome: 'maybe' }, 'outcome'],
    [{ sort: 'asc' }, 'sort'],
  ])('refuses %o with a 400 in the API’s error shape', async (query, named) => {
    const { status, body } = await readAudit(consoleApp.url, admin, query);
    expect(status).toBe(400);
    const error = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(error)).toEqual(JS_CANTON_ERROR_KEYS);
    expect(error.code).toBe('LEDGER_CONSOLE_INVALID_AUDIT_QUERY');
    expect(error.cause).toContain(named);
  });
});
