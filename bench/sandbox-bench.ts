/**
 * Sandbox load benchmark (issue 2): 100,000 users created over loopback by 8 concurrent clients,
 * then p50/p99 latency of 1000-user pages and rights grants per second. Targets: p99 page
 * < 20 ms, ≥ 3,000 creations/s. Then commands: Iou creates per second through submit-and-wait
 * (target ≥ 1,000/s), and 100-node Fanout trees (CreateAndExercise, width 98, depth 1) through
 * submit-and-wait-for-transaction-tree: trees per second and p50/p99 latency (target p99 < 50 ms).
 * Then external signing in the same run: the same Iou create prepared for an external party
 * (prepares/s), and the prepared transactions, signed between the phases, executed with
 * executeAndWait (executes/s), printed beside the creates/s of submit-and-wait.
 * Traffic goes only to 127.0.0.1; every loop is bounded by a count and a time budget.
 *
 *   npm run bench:sandbox                 # in-memory sandbox (the default mode)
 *   npm run bench:sandbox -- --durable    # with --data-dir (SQLite, synced on every commit)
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createAndRunFanout,
  createIou as createIouCommand,
} from '../sandbox/src/scenarios/demo-commands';
import { createLedgerClient, type Transport } from '../sandbox/src/scenarios/ledger-client';
import { onboardExternalParty } from '../sandbox/src/scenarios/external-party';
import { ledgerSteps } from '../sandbox/src/scenarios/ledger-steps';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    clients: { type: 'string', default: '8' },
    pages: { type: 'string', default: '2000' },
    grants: { type: 'string', default: '20000' },
    creates: { type: 'string', default: '20000' },
    trees: { type: 'string', default: '3000' },
    prepares: { type: 'string', default: '20000' },
    durable: { type: 'boolean', default: false },
  },
});
const USERS = Number(values.users);
const CLIENTS = Number(values.clients);
const PAGES = Number(values.pages);
const GRANTS = Number(values.grants);
const CREATES = Number(values.creates);
const TREES = Number(values.trees);
const PREPARES = Number(values.prepares);
const STARTED = Date.now();
// The whole run stays under two and a half minutes, in either mode: each phase has a time budget
// (the counts above are what a fast machine reaches within it), and nothing runs past DEADLINE.
const DEADLINE = STARTED + 140_000;
const USERS_PHASE_MS = 45_000;
const GRANTS_PHASE_MS = 10_000;
const WARM_UP_MS = 2_000;
const COMMAND_PHASE_MS = 10_000;
/** Fanout_Run width 98, depth 1, plus the CreateAndExercise's create: 100 nodes. */
const FANOUT_WIDTH = 98;
const TREE_NODES = 100;

const MAIN = fileURLToPath(new URL('../sandbox/src/main.ts', import.meta.url));
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

type Reply = { status: number; body: string };

/** GET that only counts the body's bytes, so the measuring client costs little CPU. */
function drain(base: URL, path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, bytes });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function call(base: URL, method: string, path: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method,
        agent,
        headers:
          payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The scenario steps' requests, over the same keep-alive agent as the measured ones. */
function loopbackTransport(base: URL): Transport {
  return async (sent) => {
    const { pathname, search } = new URL(sent.url);
    const text = await sent.text();
    const reply = await call(
      base,
      sent.method,
      `${pathname}${search}`,
      text === '' ? undefined : (JSON.parse(text) as unknown),
    );
    return new Response(reply.body === '' ? null : reply.body, { status: reply.status });
  };
}

/**
 * Runs `total` operations over `CLIENTS` concurrent workers, stopping early after `budgetMs`;
 * returns per-operation latencies.
 */
async function runConcurrently(
  total: number,
  operation: (index: number) => Promise<void>,
  budgetMs = Infinity,
) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const stopAt = Math.min(DEADLINE, Date.now() + budgetMs);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < total && Date.now() < stopAt) {
        const index = next++;
        const t0 = performance.now();
        await operation(index);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** A phase's count, rate and latency percentiles (ms, two decimals). */
function figures(run: { latencies: number[]; seconds: number }) {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    perSecond: Math.round(sorted.length / run.seconds),
    p50Ms: Number(percentile(sorted, 50).toFixed(2)),
    p99Ms: Number(percentile(sorted, 99).toFixed(2)),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function expectOk(reply: Reply, what: string) {
  if (reply.status !== 200)
    throw new Error(`${what} failed: ${String(reply.status)} ${reply.body.slice(0, 300)}`);
}

async function startSandboxProcess(dataDir: string | undefined) {
  const args = [
    '--import',
    'tsx',
    MAIN,
    '--port',
    '0',
    // A blank ledger: the demo seed (the CLI default) would only add noise.
    '--seed',
    'none',
    ...(dataDir ? ['--data-dir', dataDir] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => {
      reject(new Error(`sandbox exited with ${String(code)}`));
    });
  });
  return { child, base: new URL(url) };
}

type JsCommands = { commands: unknown[]; commandId: string; actAs: string[]; userId: string };

/** Iou creates and 100-node Fanout trees, on parties and a user of their own. */
async function runCommandPhases(base: URL) {
  const ledger = ledgerSteps(createLedgerClient({ transport: loopbackTransport(base) }));
  const issuer = await ledger.allocateParty('bench-issuer');
  const owner = await ledger.allocateParty('bench-owner');
  const userId = 'bench-submitter';
  await ledger.createUser(userId, {
    primaryParty: issuer,
    rights: [issuer, owner].map((party) => ({ kind: 'CanActAs', party })),
  });
  // The measured loops send the same steps' commands over `call` directly, so the client's
  // cost per request stays that of a bare keep-alive request.
  const commands = (commandId: string, party: string, command: unknown): JsCommands => ({
    commands: [command],
    commandId,
    actAs: [party],
    userId,
  });

  const createIou = async (commandId: string) => {
    expectOk(
      await call(
        base,
        'POST',
        '/v2/commands/submit-and-wait',
        commands(
          commandId,
          issuer,
          createIouCommand({ issuer, owner, currency: 'USD', amount: '100.00' }),
        ),
      ),
      'create Iou',
    );
  };
  const runTree = async (commandId: string) => {
    const reply = await call(
      base,
      'POST',
      '/v2/commands/submit-and-wait-for-transaction-tree',
      commands(
        commandId,
        owner,
        createAndRunFanout(owner, commandId, { width: FANOUT_WIDTH, depth: 1 }),
      ),
    );
    expectOk(reply, 'Fanout tree');
    const { transactionTree } = JSON.parse(reply.body) as {
      transactionTree: { eventsById: Record<string, unknown> };
    };
    const events = Object.keys(transactionTree.eventsById).length;
    if (events !== TREE_NODES) {
      throw new Error(`Fanout tree has ${String(events)} events, expected ${String(TREE_NODES)}`);
    }
  };

  // A short warm-up, so the measured runs see optimised code on both sides.
  await runConcurrently(400, (i) => createIou(`warm-create-${String(i)}`), WARM_UP_MS);
  await runConcurrently(100, (i) => runTree(`warm-tree-${String(i)}`), WARM_UP_MS);

  const creating = await runConcurrently(
    CREATES,
    (i) => createIou(`create-${String(i)}`),
    COMMAND_PHASE_MS,
  );
  const trees = await runConcurrently(TREES, (i) => runTree(`tree-${String(i)}`), COMMAND_PHASE_MS);
  const created = figures(creating);
  const tree = figures(trees);
  return {
    creates: created.count,
    createsPerSecond: created.perSecond,
    trees: tree.count,
    treesPerSecond: tree.perSecond,
    treeP50Ms: tree.p50Ms,
    treeP99Ms: tree.p99Ms,
  };
}

type Prepared = { preparedTransaction: string; preparedTransactionHash: string };

/**
 * External signing: an Iou create prepared for an external party (prepares/s), then the
 * prepared transactions, each signed between the phases so signing costs the measurement
 * nothing, executed with executeAndWait (executes/s), as a wallet does.
 */
async function runInteractivePhases(base: URL) {
  const client = createLedgerClient({ transport: loopbackTransport(base) });
  const ledger = ledgerSteps(client);
  const owner = await ledger.allocateParty('bench-ext-owner');
  const { privateKey } = generateKeyPairSync('ed25519');
  const userId = 'bench-external';
  await ledger.createUser(userId);
  const external = await onboardExternalParty(client, 'bench-external', privateKey, { userId });
  const prepareOne = async (commandId: string): Promise<Prepared> => {
    const reply = await call(base, 'POST', '/v2/interactive-submission/prepare', {
      commands: [
        createIouCommand({
          issuer: external.partyId,
          owner,
          currency: 'USD',
          amount: '100.00',
        }),
      ],
      commandId,
      actAs: [external.partyId],
      userId,
    });
    expectOk(reply, 'prepare');
    return JSON.parse(reply.body) as Prepared;
  };
  const executeOne = async (prepared: Prepared & { signature: string }) => {
    expectOk(
      await call(base, 'POST', '/v2/interactive-submission/executeAndWait', {
        preparedTransaction: prepared.preparedTransaction,
        partySignatures: {
          signatures: [
            {
              party: external.partyId,
              signatures: [
                {
                  format: 'SIGNATURE_FORMAT_CONCAT',
                  signature: prepared.signature,
                  signedBy: external.fingerprint,
                  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
                },
              ],
            },
          ],
        },
        submissionId: randomUUID(),
        userId,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        deduplicationPeriod: { Empty: {} },
      }),
      'execute',
    );
  };

  await runConcurrently(
    200,
    async (i) => {
      await prepareOne(`warm-prepare-${String(i)}`);
    },
    WARM_UP_MS,
  );
  const prepared: Prepared[] = [];
  const preparing = await runConcurrently(
    PREPARES,
    async (i) => {
      prepared.push(await prepareOne(`prepared-${String(i)}`));
    },
    COMMAND_PHASE_MS,
  );
  const signed = prepared.map((one) => ({
    ...one,
    signature: sign(null, Buffer.from(one.preparedTransactionHash, 'base64'), privateKey).toString(
      'base64',
    ),
  }));
  const executing = await runConcurrently(
    signed.length,
    async (i) => {
      const one = signed[i];
      if (one) await executeOne(one);
    },
    COMMAND_PHASE_MS,
  );
  const prepare = figures(preparing);
  const execute = figures(executing);
  return {
    prepares: prepare.count,
    preparesPerSecond: prepare.perSecond,
    executes: execute.count,
    executesPerSecond: execute.perSecond,
    executeP50Ms: execute.p50Ms,
    executeP99Ms: execute.p99Ms,
  };
}

async function main() {
  const dataDir = values.durable ? mkdtempSync(join(tmpdir(), 'sandbox-bench-')) : undefined;
  const { child, base } = await startSandboxProcess(dataDir);
  try {
    const id = (i: number) => `user-${String(i).padStart(6, '0')}`;

    const creation = await runConcurrently(
      USERS,
      async (i) => {
        expectOk(
          await call(base, 'POST', '/v2/users', {
            user: { id: id(i), primaryParty: `party-${String(i)}` },
            rights: [{ kind: { CanActAs: { value: { party: `party-${String(i)}` } } } }],
          }),
          'create user',
        );
      },
      USERS_PHASE_MS,
    );
    const created = creation.latencies.length;

    // Page tokens are opaque, but real tokens come from real pages: collect them by walking the list.
    const tokens: string[] = [''];
    for (let token = ''; ;) {
      const reply = await call(
        base,
        'GET',
        `/v2/users?pageSize=1000&pageToken=${encodeURIComponent(token)}`,
      );
      expectOk(reply, 'list users');
      token = (JSON.parse(reply.body) as { nextPageToken: string }).nextPageToken;
      if (!token) break;
      tokens.push(token);
    }
    // The last token leads to a short page; measure full 1000-user pages only.
    tokens.pop();
    const page = async (i: number) => {
      const token = tokens[i % tokens.length] ?? '';
      const reply = await drain(
        base,
        `/v2/users?pageSize=1000&pageToken=${encodeURIComponent(token)}`,
      );
      if (reply.status !== 200 || reply.bytes === 0)
        throw new Error(`page failed: ${String(reply.status)}`);
    };
    const paging = await runConcurrently(PAGES, page);
    const sequential: number[] = [];
    for (let i = 0; i < Math.min(PAGES, 500) && Date.now() < DEADLINE; i++) {
      const t0 = performance.now();
      await page(i);
      sequential.push(performance.now() - t0);
    }
    sequential.sort((a, b) => a - b);

    const granting = await runConcurrently(
      GRANTS,
      async (i) => {
        const user = id(i % created);
        expectOk(
          await call(base, 'POST', `/v2/users/${user}/rights`, {
            userId: user,
            rights: [{ kind: { CanReadAs: { value: { party: `reader-${String(i)}` } } } }],
          }),
          'grant',
        );
      },
      GRANTS_PHASE_MS,
    );

    const commands = await runCommandPhases(base);
    const interactive = await runInteractivePhases(base);

    const pageLatencies = [...paging.latencies].sort((a, b) => a - b);
    const results = {
      mode: values.durable ? 'durable (--data-dir)' : 'in memory',
      clients: CLIENTS,
      usersCreated: created,
      creationsPerSecond: Math.round(created / creation.seconds),
      pageRequests: pageLatencies.length,
      pageP50Ms: Number(percentile(pageLatencies, 50).toFixed(2)),
      pageP99Ms: Number(percentile(pageLatencies, 99).toFixed(2)),
      singleClientPageP50Ms: Number(percentile(sequential, 50).toFixed(2)),
      singleClientPageP99Ms: Number(percentile(sequential, 99).toFixed(2)),
      grants: granting.latencies.length,
      grantsPerSecond: Math.round(granting.latencies.length / granting.seconds),
      ...commands,
      ...interactive,
      benchSeconds: Math.round((Date.now() - STARTED) / 1000),
    };
    console.log(
      `\nSandbox benchmark (${results.mode}, ${String(CLIENTS)} concurrent clients over loopback)`,
    );
    console.log(
      `  users created:        ${String(results.usersCreated)}${created < USERS ? ` (of ${String(USERS)}: ${String(USERS_PHASE_MS / 1000)} s budget)` : ''}`,
    );
    console.log(`  creations per second: ${String(results.creationsPerSecond)}   (target ≥ 3000)`);
    console.log(
      `  1000-user page, 8 clients: p50 ${String(results.pageP50Ms)} ms, p99 ${String(results.pageP99Ms)} ms over ${String(results.pageRequests)} requests   (target p99 < 20 ms)`,
    );
    console.log(
      `  1000-user page, one client alone: p50 ${String(results.singleClientPageP50Ms)} ms, p99 ${String(results.singleClientPageP99Ms)} ms`,
    );
    console.log(
      `  grants per second:    ${String(results.grantsPerSecond)} over ${String(results.grants)} grants`,
    );
    console.log(
      `  Iou creates per second (submit-and-wait): ${String(results.createsPerSecond)} over ${String(results.creates)} commands   (target ≥ 1000)`,
    );
    console.log(
      `  external signing, same Iou create: prepares per second ${String(results.preparesPerSecond)} over ${String(results.prepares)}; executes per second (executeAndWait) ${String(results.executesPerSecond)} over ${String(results.executes)}, p50 ${String(results.executeP50Ms)} ms, p99 ${String(results.executeP99Ms)} ms   (submit-and-wait above: ${String(results.createsPerSecond)}/s)`,
    );
    console.log(
      `  100-node trees per second (CreateAndExercise Fanout_Run 98×1): ${String(results.treesPerSecond)} over ${String(results.trees)} commands`,
    );
    console.log(
      `  submit-and-wait-for-transaction-tree, 100 nodes, 8 clients: p50 ${String(results.treeP50Ms)} ms, p99 ${String(results.treeP99Ms)} ms   (target p99 < 50 ms)`,
    );
    console.log(`  whole run: ${String(results.benchSeconds)} s`);
    const outDir = fileURLToPath(new URL('./results/', import.meta.url));
    mkdirSync(outDir, { recursive: true });
    writeFileSync(
      join(outDir, `sandbox-${values.durable ? 'durable' : 'memory'}.json`),
      `${JSON.stringify(results, null, 2)}\n`,
    );
  } finally {
    child.kill('SIGTERM');
    agent.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
