import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { CustomLogAdapter, SDK } from '@canton-network/wallet-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkResponse } from './testing/spec-conformance';

/**
 * The Canton Network team's wallet SDK drives the external-signing flow against the sandbox
 * started the way a developer starts it, `npm run sandbox -- --auth jwt`, and used the way its
 * README shows: nothing in the SDK is replaced or patched. Only `fetch` is observed, to check
 * every answer it got against Canton's OpenAPI and to say which exchange failed.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IOU = '#sandbox-demo:Demo.Iou:Iou';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const FLOW_TIMEOUT_MS = 60_000;
/** Bounds the record of exchanges; the flow makes about twenty. */
const MAX_EXCHANGES = 200;

type RunningSandbox = {
  child: ChildProcess;
  url: string;
  participantId: string;
  jwtSecret: string;
  output: () => string;
};

/**
 * `npm run sandbox` is npm → sh → tsx → node: the child leads its own process group so that
 * stopping it reaches the node process that listens, not only npm.
 */
function startNpmSandbox(): Promise<RunningSandbox> {
  const child = spawn('npm', ['run', '--silent', 'sandbox', '--', '--auth', 'jwt', '--port', '0'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the sandbox did not start in ${String(START_TIMEOUT_MS)} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      // Bounded: only the start-up lines matter, and a failure prints a stack at most.
      if (output.length < 64 * 1024) output += chunk.toString();
      // main.ts prints the secret last, once the server listens.
      const participantId = /^Sandbox participant (\S+)$/m.exec(output)?.[1];
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const jwtSecret = /^HS256 secret: (\S+)$/m.exec(output)?.[1];
      if (participantId && url && jwtSecret) {
        clearTimeout(timer);
        resolve({ child, url, participantId, jwtSecret, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the sandbox exited (${String(code ?? signal)}) before it was ready:\n${output}`),
      );
    });
  });
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

const killGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
};

/** SIGTERM (main.ts closes the server and exits), then SIGKILL for whatever remains. */
async function stopGroup(pid: number) {
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (groupAlive(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  killGroup(pid, 'SIGKILL');
}

type Exchange = {
  method: string;
  path: string;
  requestBody: string;
  status: number;
  contentType: string | null;
  responseBody: string;
};

/** Passes every request through unchanged and keeps a copy of both sides. */
function observeFetch(exchanges: Exchange[]) {
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    // What fetch(input, init) itself builds; sent as a clone so the copy can be read.
    const request = new Request(input, init);
    const response = await realFetch(request.clone());
    if (exchanges.length < MAX_EXCHANGES) {
      exchanges.push({
        method: request.method,
        path: new URL(request.url).pathname,
        requestBody: request.method === 'GET' ? '' : await request.text(),
        status: response.status,
        contentType: response.headers.get('content-type'),
        responseBody: await response.clone().text(),
      });
    }
    return response;
  });
}

const clip = (text: string, length = 600) =>
  text.length > length ? `${text.slice(0, length)}…` : text;

/** The SDK rejects with the participant's JsCantonError body as it is, not an Error. */
function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const { code, cause } = error as { code: unknown; cause?: unknown };
    const reason = `${String(code)}: ${String(cause)}`;
    return code === 'SANDBOX_UNSUPPORTED_ENDPOINT'
      ? `${reason}\n(the endpoint is still missing from the sandbox: issue 22, external parties and interactive submission)`
      : reason;
  }
  return JSON.stringify(error);
}

type ActiveIou = {
  contractId: string;
  signatories: string[];
  createArgument: { issuer: string; owner: string; currency: string; amount: string };
};

/** `contractEntry.JsActiveContract.createdEvent` of each active contract in the answer. */
function activeIous(entries: unknown[]): ActiveIou[] {
  return entries.flatMap((entry) => {
    const active = (entry as { contractEntry?: { JsActiveContract?: { createdEvent: ActiveIou } } })
      .contractEntry?.JsActiveContract;
    return active ? [active.createdEvent] : [];
  });
}

describe('the Canton Network wallet SDK against `npm run sandbox -- --auth jwt`', () => {
  let sandbox: RunningSandbox | undefined;
  const stopOnExit = () => {
    if (sandbox?.child.pid !== undefined) killGroup(sandbox.child.pid, 'SIGKILL');
  };

  beforeAll(async () => {
    // Should the test run die without afterAll, the sandbox must not outlive it.
    process.once('exit', stopOnExit);
    sandbox = await startNpmSandbox();
  }, START_TIMEOUT_MS + 5_000);

  afterAll(async () => {
    process.off('exit', stopOnExit);
    if (sandbox?.child.pid !== undefined) await stopGroup(sandbox.child.pid);
  }, STOP_TIMEOUT_MS + 5_000);

  it(
    'onboards an external party, then prepares, signs and executes a create and an exercise, read back from the ACS',
    async () => {
      if (!sandbox) throw new Error('the sandbox did not start');
      const { url, participantId, jwtSecret } = sandbox;
      const exchanges: Exchange[] = [];
      observeFetch(exchanges);
      const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
        try {
          return await run();
        } catch (error) {
          const last = exchanges
            .slice(-3)
            .map(
              (exchange) =>
                `  ${exchange.method} ${exchange.path} ${clip(exchange.requestBody, 300)}\n` +
                `  → ${String(exchange.status)} ${clip(exchange.responseBody)}`,
            )
            .join('\n');
          throw new Error(
            `wallet SDK step "${name}" failed: ${describeFailure(error)}\nlast exchanges:\n${last}`,
            { cause: error },
          );
        }
      };

      const sdk = await step('connect', () =>
        SDK.create({
          // Its default logger prints to stdout (and the token it signed, at info level).
          logAdapter: new CustomLogAdapter(() => undefined),
          // A participant's default HS256 service takes an audience-based token (§4.3).
          auth: {
            method: 'self_signed',
            issuer: 'unsafe-auth',
            credentials: {
              clientId: 'participant_admin',
              clientSecret: jwtSecret,
              audience: `https://daml.com/jwt/aud/participant/${participantId}`,
              scope: '',
            },
          },
          ledgerClientUrl: url,
        }),
      );

      const { publicKey, privateKey } = sdk.keys.generate();
      const fingerprint = await sdk.keys.fingerprint(publicKey);
      const partyHint = `wallet-sdk-${randomUUID()}`;
      const onboarding = sdk.party.external.create(publicKey, { partyHint });
      const topology = await step('generate the external party topology', () =>
        onboarding.topology(),
      );
      expect(topology).toMatchObject({
        partyId: `${partyHint}::${fingerprint}`,
        publicKeyFingerprint: fingerprint,
      });
      // What the party signs is recomputed from the transactions, not taken on trust.
      expect(await sdk.utils.hash.topologyTransaction(topology.topologyTransactions)).toBe(
        topology.multiHash,
      );
      const { partyId } = await step('allocate the external party', () =>
        onboarding.sign(privateKey).execute(),
      );
      expect(partyId).toBe(topology.partyId);
      // execute() granted the SDK's user CanActAs, which is how the SDK finds its wallets.
      expect(await step('list the wallets', () => sdk.party.list())).toContain(partyId);

      const prepareSignExecute = async (what: string, command: unknown) => {
        const prepared = sdk.ledger.prepare({ partyId, commands: command });
        const { response } = await step(`prepare the ${what}`, () => prepared.toJSON());
        expect(response.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
        const recomputed = await sdk.utils.hash.preparedTransaction(response.preparedTransaction);
        expect(recomputed.toBase64(), `the ${what}'s hash, as the SDK computes it`).toBe(
          response.preparedTransactionHash,
        );
        const decoded = await prepared.decode();
        expect(decoded.metadata?.submitterInfo?.actAs).toEqual([partyId]);
        const executed = await step(`execute the ${what}`, () =>
          prepared.sign(privateKey).execute({ partyId }),
        );
        expect(executed).toEqual({
          updateId: expect.stringMatching(/\S/) as unknown,
          completionOffset: expect.any(Number) as unknown,
        });
      };
      // The cached `acsReader.read` needs Set.prototype.union (Node 22); the raw reader does not.
      const readIous = async () =>
        activeIous(
          await step('read the active contracts', () =>
            sdk.ledger.acsReader.raw.read({
              parties: [partyId],
              filterByParty: true,
              templateIds: [IOU],
            }),
          ),
        );

      await prepareSignExecute('create', {
        CreateCommand: {
          templateId: IOU,
          createArguments: {
            issuer: partyId,
            owner: partyId,
            currency: 'USD',
            amount: '100.0',
            observers: [],
          },
        },
      });
      const [iou, ...others] = await readIous();
      expect(others).toEqual([]);
      expect(iou).toMatchObject({
        signatories: [partyId],
        createArgument: {
          issuer: partyId,
          owner: partyId,
          currency: 'USD',
          amount: '100.0000000000',
        },
      });

      await prepareSignExecute('exercise', {
        ExerciseCommand: {
          templateId: IOU,
          contractId: iou?.contractId,
          choice: 'Iou_Split',
          choiceArgument: { splitAmount: '30.0' },
        },
      });
      const afterSplit = await readIous();
      expect(afterSplit.map((contract) => contract.contractId)).not.toContain(iou?.contractId);
      expect(afterSplit.map((contract) => contract.createArgument.amount).sort()).toEqual([
        '30.0000000000',
        '70.0000000000',
      ]);

      const violations = exchanges.flatMap((exchange) => {
        const { checked, errors } = checkResponse(
          exchange.method,
          exchange.path,
          exchange.status,
          exchange.contentType,
          exchange.responseBody,
        );
        const where = `${exchange.method} ${exchange.path} ${String(exchange.status)}`;
        return checked
          ? errors.map((error) => `${where}: ${error}`)
          : [`${where}: not in the spec`];
      });
      expect(violations).toEqual([]);
    },
    FLOW_TIMEOUT_MS,
  );
});
