import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import type { PrepareResponse } from './interactive-submission';
import {
  servePreparedDecodes,
  type PreparedDecodeRequest,
  type PreparedDecodeResponse,
} from './prepared-transaction-worker';

type Decoder = typeof import('./prepared-transaction-decoder');

const FANOUT = '#sandbox-demo:Demo.Fanout:Fanout';

let sandbox: Sandbox;
let owner = '';

beforeAll(async () => {
  sandbox = createSandbox();
  owner = await sandboxSteps(sandbox).allocateParty('decoder-owner');
});

async function prepareFanout(width: number): Promise<PrepareResponse> {
  return sandboxSteps(sandbox).client.request<PrepareResponse>(
    'POST',
    '/v2/interactive-submission/prepare',
    {
      body: {
        commands: [
          {
            CreateAndExerciseCommand: {
              templateId: FANOUT,
              createArguments: { owner, label: 'root' },
              choice: 'Fanout_Run',
              choiceArgument: { width: String(width), depth: '1' },
            },
          },
        ],
        commandId: `decoder-${String(width)}-${String(Date.now())}`,
        actAs: [owner],
        userId: 'participant_admin',
      },
    },
  );
}

/**
 * A stand-in for the browser's `Worker` running the real worker code (`servePreparedDecodes`) in
 * this thread, asynchronously, with messages cloned both ways as `postMessage` clones them.
 */
class InThreadWorker extends EventTarget {
  static requests = 0;
  static terminated = 0;
  private readonly scope = new EventTarget();

  constructor() {
    super();
    servePreparedDecodes({
      addEventListener: (type: string, listener: (event: MessageEvent) => void) => {
        this.scope.addEventListener(type, listener as EventListener);
      },
      postMessage: (message: PreparedDecodeResponse) => {
        const data = structuredClone(message);
        setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data })), 0);
      },
    });
  }

  postMessage(request: PreparedDecodeRequest) {
    InThreadWorker.requests += 1;
    const data = structuredClone(request);
    setTimeout(() => this.scope.dispatchEvent(new MessageEvent('message', { data })), 0);
  }

  terminate() {
    InThreadWorker.terminated += 1;
  }
}

/** The decoder with no worker spawned yet, and the error class of the same module graph. */
async function freshDecoder(): Promise<
  Decoder & {
    PreparedTransactionError: typeof import('./prepared-transaction-error').PreparedTransactionError;
  }
> {
  vi.resetModules();
  const { PreparedTransactionError } = await import('./prepared-transaction-error');
  return { ...(await import('./prepared-transaction-decoder')), PreparedTransactionError };
}

describe('decodePreparedInWorker', () => {
  it('decodes in the worker: the tree, its nodes and the recomputed hash cross back whole', async () => {
    vi.stubGlobal('Worker', InThreadWorker);
    InThreadWorker.requests = 0;
    const { decodePreparedInWorker } = await freshDecoder();
    const answer = await prepareFanout(8);
    const preview = await decodePreparedInWorker(answer);
    expect(InThreadWorker.requests).toBe(1);
    expect(InThreadWorker.terminated).toBe(0);
    // A create and the exercise at the top, and the exercise's eight children.
    expect(preview.tree.nodes.size).toBe(10);
    expect(preview.tree.nodes.get(0)?.kind).toBe('created');
    expect(preview.hash.isMatching).toBe(true);
  });

  it('refuses malformed bytes with a PreparedTransactionError, through the worker', async () => {
    vi.stubGlobal('Worker', InThreadWorker);
    const { decodePreparedInWorker, PreparedTransactionError } = await freshDecoder();
    const answer = await prepareFanout(1);
    const broken = { ...answer, preparedTransaction: 'not base64!' };
    await expect(decodePreparedInWorker(broken)).rejects.toThrow(PreparedTransactionError);
    await expect(decodePreparedInWorker(broken)).rejects.toThrow(
      'The prepared transaction is not valid base64.',
    );
  });

  it('decodes in this thread where there is no Worker (jsdom, Node)', async () => {
    vi.stubGlobal('Worker', undefined);
    const { decodePreparedInWorker } = await freshDecoder();
    const preview = await decodePreparedInWorker(await prepareFanout(2));
    expect(preview.tree.nodes.size).toBe(4);
  });
});
