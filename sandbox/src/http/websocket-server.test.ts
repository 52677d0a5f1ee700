import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { checkSchema } from '../testing/spec-conformance';
import { TEST_SECRET, hs256Token } from '../testing/tokens';

/** The spec's schema of each channel's elements (the AsyncAPI messages use the same shapes). */
const ELEMENT_SCHEMAS: Record<string, string> = {
  '/v2/updates': 'JsGetUpdatesResponse',
  '/v2/updates/trees': 'JsGetUpdateTreesResponse',
  '/v2/state/active-contracts': 'JsGetActiveContractsResponse',
  '/v2/commands/completions': 'CompletionStreamResponse',
  '/v2/commands/command-completions': 'CompletionStreamResponse',
};

/**
 * Opens a stream, sends its one request and collects messages until `until` says stop. Every
 * message is checked against the spec: an element of the channel's type or a JsCantonError.
 */
function openStream(
  url: string,
  request: unknown,
  { protocols, until }: { protocols?: string[]; until: (messages: unknown[]) => boolean },
) {
  const channel = new URL(url).pathname;
  return new Promise<{ messages: any[]; protocol: string; closeCode: number | undefined }>(
    (resolve, reject) => {
      const ws = new WebSocket(url, protocols);
      const messages: any[] = [];
      let closeCode: number | undefined;
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`stream gave ${JSON.stringify(messages)} before timing out`));
      }, 5000);
      const finish = () => {
        clearTimeout(timer);
        resolve({ messages, protocol: ws.protocol, closeCode });
      };
      ws.on('open', () => {
        ws.send(JSON.stringify(request));
      });
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8'));
        const schema = 'code' in message ? 'JsCantonError' : (ELEMENT_SCHEMAS[channel] ?? '');
        expect(checkSchema(schema, message), JSON.stringify(message)).toEqual([]);
        messages.push(message);
        if (until(messages)) {
          ws.close();
          finish();
        }
      });
      ws.on('close', (code) => {
        closeCode = code;
        finish();
      });
      ws.on('error', reject);
    },
  );
}

const post = async (base: string, path: string, body: unknown, token?: string) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  });
  const json: any = await response.json();
  return json;
};

describe('websocket streams', () => {
  let sandbox: RunningSandbox;
  let ws = '';
  let alice = '';
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
    ws = sandbox.url.replace('http', 'ws');
    alice = (await post(sandbox.url, '/v2/parties', { partyIdHint: 'alice' })).partyDetails.party;
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const createIou = (commandId: string) =>
    post(sandbox.url, '/v2/commands/submit-and-wait', {
      commands: [
        {
          CreateCommand: {
            templateId: '#sandbox-demo:Demo.Iou:Iou',
            createArguments: {
              issuer: alice,
              owner: alice,
              currency: 'EUR',
              amount: '1',
              observers: [],
            },
          },
        },
      ],
      commandId,
      actAs: [alice],
      userId: 'participant_admin',
    });

  it('streams past updates, then new ones as they are committed', async () => {
    const first = await createIou('ws-1');
    const format = {
      includeTransactions: {
        eventFormat: { filtersByParty: { [alice]: {} }, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    };
    let second: Promise<{ updateId: string }> | undefined;
    const { messages, protocol } = await openStream(
      `${ws}/v2/updates`,
      { beginExclusive: 0, updateFormat: format, verbose: false },
      {
        protocols: ['daml.ws.auth'],
        until: (received) => {
          if (received.length === 1) {
            second = createIou('ws-2');
          }
          return received.length === 2;
        },
      },
    );
    expect(protocol).toBe('daml.ws.auth');
    expect(messages.map((m) => m.update.Transaction.value.updateId)).toEqual([
      first.updateId,
      (await second)?.updateId,
    ]);
  });

  it('ends a closed range by closing the socket normally', async () => {
    const { messages, closeCode } = await openStream(
      `${ws}/v2/updates/trees`,
      {
        beginExclusive: 0,
        endInclusive: 2,
        filter: { filtersByParty: { [alice]: {} } },
        verbose: true,
      },
      { until: () => false },
    );
    expect(closeCode).toBe(1000);
    expect(messages).toHaveLength(1);
    expect(messages[0].update.TransactionTree.value.offset).toBe(2);
  });

  it('streams completions and the active contracts', async () => {
    const completions = await openStream(
      `${ws}/v2/commands/completions`,
      { userId: 'participant_admin', parties: [alice], beginExclusive: 0 },
      { until: (received) => received.length === 2 },
    );
    expect(
      completions.messages.map((m) => m.completionResponse.Completion.value.commandId),
    ).toEqual(['ws-1', 'ws-2']);
    const acs = await openStream(
      `${ws}/v2/state/active-contracts`,
      {
        activeAtOffset: 3,
        eventFormat: { filtersByParty: { [alice]: {} }, verbose: false },
      },
      { until: () => false },
    );
    expect(acs.messages.map((m) => m.contractEntry.JsActiveContract.createdEvent.offset)).toEqual([
      2, 3,
    ]);
  });

  it('sends errors as JsCantonError messages, not close frames', async () => {
    const bad = await openStream(
      `${ws}/v2/updates`,
      { beginExclusive: 99, endInclusive: 100, filter: { filtersByParty: { [alice]: {} } } },
      {
        until: () => false,
      },
    );
    expect(bad.messages).toHaveLength(1);
    expect(bad.messages[0].code).toBe('OFFSET_AFTER_LEDGER_END');
    const garbled = await openStream(`${ws}/v2/updates`, 'not json at all', { until: () => false });
    expect(garbled.messages[0].code).toBe('INVALID_ARGUMENT');
  });
});

describe('websocket protocol errors', () => {
  it('end the one connection, not the sandbox', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, seed: 'none' });
    try {
      const { hostname, port } = new URL(sandbox.url);
      const socket = connect(Number(port), hostname);
      const closed = new Promise<void>((resolve) =>
        socket.once('close', () => {
          resolve();
        }),
      );
      let handshake = '';
      socket.on('data', (chunk: Buffer) => {
        handshake += chunk.toString('latin1');
        if (handshake.includes('\r\n\r\n')) {
          // An unmasked client frame: a protocol violation the server must survive.
          socket.write(Buffer.from([0x81, 0x05, ...Buffer.from('hello')]));
        }
      });
      socket.write(
        [
          'GET /v2/updates HTTP/1.1',
          `Host: ${hostname}:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      );
      await closed;
      expect(handshake).toContain('101 Switching Protocols');
      expect((await fetch(`${sandbox.url}/v2/version`)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

describe('websocket authentication', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      quiet: true,
      seed: 'none',
      auth: 'jwt',
      jwtSecret: TEST_SECRET,
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('takes the token from Sec-WebSocket-Protocol and refuses requests without one', async () => {
    const url = `${sandbox.url.replace('http', 'ws')}/v2/commands/command-completions`;
    // Refused at the handshake (websocket-limits.test.ts has the details).
    await expect(
      openStream(url, { parties: [], beginExclusive: 0 }, { until: () => false }),
    ).rejects.toThrow('Unexpected server response: 401');
    const token = await hs256Token('participant_admin');
    const allowed = await openStream(
      url,
      { parties: [], beginExclusive: 0 },
      { protocols: [`jwt.token.${token}`, 'daml.ws.auth'], until: () => false },
    );
    // An admin may not read as any party: still refused, but after authentication (403).
    expect(allowed.protocol).toBe('daml.ws.auth');
    expect(allowed.messages[0]).toMatchObject({ code: 'NA', grpcCodeValue: 7 });
  });
});
