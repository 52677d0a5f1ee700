import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import {
  ACTIVE_CONTRACT_COUNTS_PATH,
  type ActiveContractCounts,
} from '@ledger-console/edge/console-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/index';
import { JS_CANTON_ERROR_KEYS, TEST_SECRET, hs256Token } from '../../sandbox/src/testing/index';
import { tinyDist } from './audit/audit-testing';
import { closeServer, createServer } from './create-server';

// The count over real loopback HTTP: a console in front of a sandbox with JWT auth, whose users
// read different parties. The server reads the stream with each caller's own token.

let distDir: string;
let sandbox: RunningSandbox;
let server: http.Server;
let consoleUrl: string;
let packageId: string;
let ledgerEnd: number;
let alice: string;
let bob: string;
const tokens: Record<string, string> = {};

const iouFilter = () => ({
  cumulative: [
    {
      identifierFilter: {
        TemplateFilter: {
          value: { templateId: `${packageId}:Demo.Iou:Iou`, includeCreatedEventBlob: false },
        },
      },
    },
  ],
});

const byParty = (...parties: string[]) => ({
  filtersByParty: Object.fromEntries(parties.map((party) => [party, iouFilter()])),
  verbose: false,
});

async function countAs(
  token: string | null,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${consoleUrl}${ACTIVE_CONTRACT_COUNTS_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  distDir = await tinyDist();
  sandbox = await startSandbox({ port: 0, quiet: true, auth: 'jwt', jwtSecret: TEST_SECRET });
  const admin = await hs256Token('participant_admin');
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${String(response.status)}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const allocate = async (hint: string) => {
    const answer = (await call('/v2/parties', { partyIdHint: hint, identityProviderId: '' })) as {
      partyDetails: { party: string };
    };
    return answer.partyDetails.party;
  };
  alice = await allocate(`alice-${crypto.randomUUID().slice(0, 8)}`);
  bob = await allocate(`bob-${crypto.randomUUID().slice(0, 8)}`);
  const rights = (kind: string, party?: string) => ({
    kind: { [kind]: { value: party === undefined ? {} : { party } } },
  });
  const createUser = (id: string, userRights: unknown[]) =>
    call('/v2/users', {
      user: { id, primaryParty: '', isDeactivated: false, identityProviderId: '' },
      rights: userRights,
    });
  await createUser('issues', [rights('CanActAs', alice), rights('CanActAs', bob)]);
  await createUser('reads-alice', [rights('CanReadAs', alice)]);
  await createUser('reads-bob', [rights('CanReadAs', bob)]);
  await createUser('reads-all', [rights('CanReadAsAnyParty')]);
  for (const user of ['issues', 'reads-alice', 'reads-bob', 'reads-all']) {
    tokens[user] = await hs256Token(user);
  }
  // Each party issues its own Ious in one transaction (the demo package's IouIssuance).
  for (const [party, count] of [
    [alice, 30],
    [bob, 20],
  ] as const) {
    const response = await fetch(`${sandbox.url}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${tokens.issues ?? ''}`,
      },
      body: JSON.stringify({
        commands: [
          {
            CreateAndExerciseCommand: {
              templateId: '#sandbox-demo:Demo.Iou:IouIssuance',
              createArguments: {
                issuer: party,
                owner: party,
                currency: 'USD',
                amount: '1.0',
                count: String(count),
              },
              choice: 'IouIssuance_Issue',
              choiceArgument: {},
            },
          },
        ],
        commandId: crypto.randomUUID(),
        actAs: [party],
        userId: 'issues',
      }),
    });
    if (!response.ok) throw new Error(`issuing answered ${await response.text()}`);
  }
  const end = (await (
    await fetch(`${sandbox.url}/v2/state/ledger-end`, {
      headers: { Authorization: `Bearer ${admin}` },
    })
  ).json()) as { offset: number };
  ledgerEnd = end.offset;
  const vetted = (await (
    await fetch(`${sandbox.url}/v2/package-vetting/list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin}` },
      body: '{}',
    })
  ).json()) as { vettedPackages: { packages: { packageId: string; packageName: string }[] }[] };
  const demo = vetted.vettedPackages
    .flatMap((entry) => entry.packages)
    .find((pkg) => pkg.packageName === 'sandbox-demo');
  if (!demo) throw new Error('no demo package');
  packageId = demo.packageId;
  server = createServer({
    distDir,
    ledgerUrl: sandbox.url,
    activeContractCounts: { maxRequestBytes: 4096 },
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  consoleUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}, 60_000);

afterAll(async () => {
  // beforeAll may have failed before the server existed.
  if ((server as http.Server | undefined) !== undefined) await closeServer(server);
  await sandbox.close();
  await rm(distDir, { recursive: true, force: true });
});

describe('counting with the caller’s own read rights', () => {
  it('counts the contracts of the parties each user reads, with their stakeholders', async () => {
    const asAlice = await countAs(tokens['reads-alice'] ?? '', {
      activeAtOffset: ledgerEnd,
      eventFormat: byParty(alice),
      packageId,
    });
    expect(asAlice.status).toBe(200);
    expect(asAlice.body).toEqual({
      total: 30,
      byTemplateId: { [`${packageId}:Demo.Iou:Iou`]: 30 },
      isComplete: true,
      stakeholders: [alice],
    } satisfies ActiveContractCounts);

    const asBob = await countAs(tokens['reads-bob'] ?? '', {
      activeAtOffset: ledgerEnd,
      eventFormat: byParty(bob),
    });
    expect(asBob.body).toMatchObject({ total: 20, isComplete: true, stakeholders: [bob] });

    const asAll = await countAs(tokens['reads-all'] ?? '', {
      activeAtOffset: ledgerEnd,
      eventFormat: { filtersForAnyParty: iouFilter(), verbose: false },
    });
    expect(asAll.body).toMatchObject({
      total: 50,
      isComplete: true,
      stakeholders: [alice, bob].sort(),
    });
  });

  it('relays the participant’s refusal of a party the caller may not read, and of a missing token', async () => {
    const foreign = await countAs(tokens['reads-alice'] ?? '', {
      activeAtOffset: ledgerEnd,
      eventFormat: byParty(alice, bob),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toEqual(expect.any(String));
    expect(foreign.body).not.toHaveProperty('total');

    const anonymous = await countAs(null, {
      activeAtOffset: ledgerEnd,
      eventFormat: byParty(alice),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toHaveProperty('total');
  });

  it('stops at the limit and says the count is incomplete ("at least")', async () => {
    const capped = await countAs(tokens['reads-all'] ?? '', {
      activeAtOffset: ledgerEnd,
      eventFormat: { filtersForAnyParty: iouFilter(), verbose: false },
      limit: 25,
    });
    expect(capped.status).toBe(200);
    expect(capped.body).toMatchObject({ total: 25, isComplete: false });
  });
});

describe('bad requests', () => {
  it.each([
    ['not JSON', '{"activeAtOffset":'],
    ['no offset', { eventFormat: {} }],
    ['a negative offset', { activeAtOffset: -1, eventFormat: {} }],
    ['no event format', { activeAtOffset: 1 }],
    ['an unknown field', { activeAtOffset: 1, eventFormat: {}, extra: true }],
    ['a limit above the cap', { activeAtOffset: 1, eventFormat: {}, limit: 100_001 }],
  ])('answers 400 in the participant’s error shape for %s', async (_name, body) => {
    const answer = await countAs(tokens['reads-alice'] ?? '', body);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body).sort()).toEqual([...JS_CANTON_ERROR_KEYS].sort());
    expect(answer.body.code).toBe('LEDGER_CONSOLE_INVALID_COUNT_REQUEST');
  });

  it('refuses a body over its limit with 413', async () => {
    const answer = await countAs(tokens['reads-alice'] ?? '', {
      activeAtOffset: 1,
      eventFormat: { padding: 'x'.repeat(5000) },
    });
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe('REQUEST_ENTITY_TOO_LARGE');
  });

  it('answers only POST', async () => {
    const response = await fetch(`${consoleUrl}${ACTIVE_CONTRACT_COUNTS_PATH}`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('the request guard', () => {
  it('refuses another site’s page and a foreign Host', async () => {
    const body = { activeAtOffset: ledgerEnd, eventFormat: byParty(alice) };
    const crossSite = await countAs(tokens['reads-alice'] ?? '', body, {
      Origin: 'https://evil.example',
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe('LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST');

    const form = await countAs(tokens['reads-alice'] ?? '', JSON.stringify(body), {
      'Content-Type': 'text/plain',
    });
    expect(form.status).toBe(415);

    const sameOrigin = await countAs(tokens['reads-alice'] ?? '', body, {
      Origin: consoleUrl,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(sameOrigin.body).toMatchObject({ total: 30 });
  });

  it('refuses a Host it does not answer to', async () => {
    const http = await import('node:http');
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: ACTIVE_CONTRACT_COUNTS_PATH,
          headers: { Host: 'rebound.example', 'Content-Type': 'application/json' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end('{}');
    });
    expect(status).toBe(403);
  });
});
