import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { TEST_SECRET, hs256Token } from '../testing/tokens';

type Outcome =
  | { kind: 'refused'; status: number; body: any }
  | { kind: 'closed'; code: number; reason: string; messages: unknown[]; afterMs: number };

/** Opens a socket, optionally sends `message`, and reports how the server ended it. */
function exchange(
  url: string,
  { protocols, message }: { protocols?: string[]; message?: string } = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const messages: unknown[] = [];
    let opened = 0;
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('the server neither refused nor closed the socket within 5 s'));
    }, 5000);
    ws.on('unexpected-response', (_request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ kind: 'refused', status: response.statusCode ?? 0, body: JSON.parse(text) });
        ws.terminate();
      });
    });
    ws.on('open', () => {
      opened = performance.now();
      if (message !== undefined) ws.send(message);
    });
    ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8'))));
    ws.on('close', (code, reason) => {
      clearTimeout(timer);
      resolve({
        kind: 'closed',
        code,
        reason: reason.toString(),
        messages,
        afterMs: performance.now() - opened,
      });
    });
    ws.on('error', () => undefined);
  });
}

const completions = { parties: [], beginExclusive: 0 };

describe('websocket limits', () => {
  let sandbox: RunningSandbox;
  let url = '';
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      quiet: true,
      seed: 'none',
      auth: 'jwt',
      jwtSecret: TEST_SECRET,
      websocketMaxMessageBytes: 4096,
      websocketRequestTimeoutMs: 300,
    });
    url = `${sandbox.url.replace('http', 'ws')}/v2/commands/command-completions`;
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('refuses a handshake without a valid token with a 401 before upgrading', async () => {
    for (const protocols of [undefined, ['jwt.token.not-a-token', 'daml.ws.auth']]) {
      const outcome = await exchange(url, protocols ? { protocols } : {});
      expect(outcome).toMatchObject({
        kind: 'refused',
        status: 401,
        body: { code: 'NA', errorCategory: -1, grpcCodeValue: 16 },
      });
    }
    const stranger = await hs256Token('nobody-here');
    const unknownUser = await exchange(url, { protocols: [`jwt.token.${stranger}`] });
    // Claim resolution itself fails for an unknown user: refused too, with its own status.
    expect(unknownUser).toMatchObject({ kind: 'refused', body: { code: 'NA' } });
  });

  it('closes a socket whose request message is over the limit with 1009', async () => {
    const token = await hs256Token('participant_admin');
    const outcome = await exchange(url, {
      protocols: [`jwt.token.${token}`, 'daml.ws.auth'],
      message: JSON.stringify({ ...completions, padding: 'x'.repeat(5000) }),
    });
    expect(outcome).toMatchObject({ kind: 'closed', code: 1009, messages: [] });
  });

  it('closes a socket that never sends its request once the request timeout passes', async () => {
    const token = await hs256Token('participant_admin');
    const outcome = await exchange(url, { protocols: [`jwt.token.${token}`, 'daml.ws.auth'] });
    expect(outcome).toMatchObject({
      kind: 'closed',
      code: 1008,
      reason: 'No request message within 300 ms',
    });
    if (outcome.kind === 'closed') {
      expect(outcome.afterMs).toBeGreaterThanOrEqual(250);
      expect(outcome.afterMs).toBeLessThan(3000);
    }
  });

  it('answers a request message nested past the JSON depth limit with a decode error', async () => {
    const token = await hs256Token('participant_admin');
    const deep = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    const outcome = await exchange(url, {
      protocols: [`jwt.token.${token}`, 'daml.ws.auth'],
      message: `{"parties":${deep}}`,
    });
    expect(outcome).toMatchObject({
      kind: 'closed',
      code: 1000,
      messages: [
        {
          code: 'INVALID_ARGUMENT',
          cause: expect.stringMatching(/^Invalid value for: body \(JSON nested deeper than 1000/),
        },
      ],
    });
  });
});
