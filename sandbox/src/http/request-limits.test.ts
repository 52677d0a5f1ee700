import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../create-sandbox';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { bodyOf, rawExchange } from '../testing/raw-http';
import { createTestSandbox, expectDecodeFailure } from '../testing/test-client';
import { MAX_JSON_DEPTH } from './decode';

describe('request body limits over a real socket', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      quiet: true,
      seed: 'none',
      maxRequestBytes: 1024,
      maxDarBytes: 4096,
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('refuses a body announced over the limit before a byte of it arrives', async () => {
    const { response, elapsedMs } = await rawExchange(
      sandbox.url,
      'POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000000000000\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    const body = JSON.parse(bodyOf(response));
    expect(body).toMatchObject({
      code: 'REQUEST_ENTITY_TOO_LARGE',
      cause: 'The request body of 1000000000000 bytes exceeds the limit of 1024 bytes',
      errorCategory: 8,
      grpcCodeValue: 3,
    });
    expect(elapsedMs).toBeLessThan(2000);
  });

  it('gives DAR uploads their own, larger limit', async () => {
    const announce = (path: string, length: number) =>
      rawExchange(
        sandbox.url,
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n` +
          `Content-Length: ${String(length)}\r\nConnection: close\r\n\r\n${'x'.repeat(length)}`,
      );
    // Over the JSON limit but under the DAR one: read, and refused as a DAR instead.
    const accepted = await announce('/v2/dars?vetAllPackages=false', 2000);
    expect(accepted.response).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(bodyOf(accepted.response))).toMatchObject({ code: 'INVALID_DAR' });
    for (const path of ['/v2/dars', '/v2/packages', '/v2/dars/validate']) {
      const refused = await announce(path, 5000);
      expect(refused.response, path).toMatch(/^HTTP\/1\.1 413 /);
    }
  });

  it('cuts a chunked body as soon as it passes the limit', async () => {
    const chunk = '{"user":{"id":"' + 'a'.repeat(600);
    const { response } = await rawExchange(
      sandbox.url,
      'POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n' +
        // Two chunks of 615 bytes, and no terminating chunk: the answer must not wait for it.
        `${chunk.length.toString(16)}\r\n${chunk}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(bodyOf(response.replace(/\r\n[0-9a-f]+\r\n/g, '\r\n')))).toMatchObject({
      code: 'REQUEST_ENTITY_TOO_LARGE',
      cause: 'The request body exceeds the limit of 1024 bytes',
    });
  });

  it('bounds the body of a GET too (the deprecated active-contracts page request)', async () => {
    const chunk = `{"pageToken":"${'a'.repeat(2000)}"}`;
    const { response } = await rawExchange(
      sandbox.url,
      'GET /v2/state/active-contracts-page HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('still serves bodies under the limit', async () => {
    const body = JSON.stringify({ user: { id: 'small', primaryParty: '' } });
    const { response } = await rawExchange(
      sandbox.url,
      `POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${String(body.length)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('ends an announced body at its Content-Length: what follows is another request', async () => {
    // The socket path does not count announced bodies (body-limit.ts): it relies on this.
    const body = JSON.stringify({ user: { id: 'framed', primaryParty: '' } });
    const next = `GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'x'.repeat(2000)}\r\n\r\n`;
    const { response } = await rawExchange(
      sandbox.url,
      `POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${String(body.length)}\r\n\r\n${body}${next}`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    // Read with the next request's bytes, the body would not have decoded.
    expect(bodyOf(response)).toMatch(/^\{"user":\{"id":"framed"/);
  });
});

describe('request body limits in process', () => {
  const sandbox = createSandbox({ maxRequestBytes: 1024 });
  afterAll(() => {
    sandbox.close();
  });

  it('counts a body whose Content-Length understates it', async () => {
    // No HTTP parser framed this Request, so its announced length proves nothing.
    const body = JSON.stringify({ user: { id: 'liar', primaryParty: 'x'.repeat(2000) } });
    const response = await sandbox.fetch(
      new Request('http://127.0.0.1/v2/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '40' },
        body,
      }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'REQUEST_ENTITY_TOO_LARGE' });
  });
});

describe('deeply nested JSON', () => {
  const t = createTestSandbox();
  afterAll(() => {
    t.close();
  });
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('is a decode failure at 100,000 levels, never a stack overflow', async () => {
    for (const deep of [arrays(100_000), objects(100_000)]) {
      const body = `{"commands":{"commandId":"c","actAs":["p"],"userId":"u","commands":[{"CreateCommand":{"templateId":"a:B:C","createArguments":${deep}}}]}}`;
      const result = await t.call('POST', '/v2/commands/submit-and-wait', { rawBody: body });
      expect(result.status).toBe(400);
      expect(result.text).toMatch(/^Invalid value for: body \(JSON nested deeper than 1000 levels/);
      // Bare, the 1001st bracket is where the refusal points.
      const column = MAX_JSON_DEPTH * (deep.startsWith('[') ? 1 : 5) + 1;
      const bare = await t.call('POST', '/v2/parties', { rawBody: deep });
      expectDecodeFailure(
        bare,
        `Invalid value for: body (JSON nested deeper than ${String(MAX_JSON_DEPTH)} levels (line 1, column ${String(column)}))`,
      );
      const users = await t.call('POST', '/v2/users', { rawBody: `{"user":${deep}}` });
      expect(users.status).toBe(400);
      expect(users.text).toMatch(/^Invalid value for: body \(JSON nested deeper than/);
    }
  });

  it('accepts nesting up to the limit and ignores brackets inside strings', async () => {
    const inString = JSON.stringify({ user: { id: `x${'['.repeat(5000)}`, primaryParty: '' } });
    const result = await t.call('POST', '/v2/users', { rawBody: inString });
    // Decoded fine: refused only for the id itself.
    expect(result.status).toBe(400);
    expect(result.json?.code).toBe('INVALID_FIELD');
    const atLimit = await t.call('POST', '/v2/users', {
      rawBody: `{"user":{"id":"u1","primaryParty":"","metadata":${objects(MAX_JSON_DEPTH - 3)}}}`,
    });
    expect(atLimit.text).not.toContain('nested deeper');
  });
});

describe('body limits and authentication', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      quiet: true,
      seed: 'none',
      auth: 'jwt',
      jwtSecret: 'body-limit-test-secret',
      maxDarBytes: 4096,
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('refuses an unauthenticated DAR upload without waiting for its body', async () => {
    // Chunked, and the body never ends: only an answer that does not read it can come back.
    const { response } = await rawExchange(
      sandbox.url,
      'POST /v2/dars HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('still answers an announced oversized body with 413 when there is no token', async () => {
    const { response } = await rawExchange(
      sandbox.url,
      'POST /v2/dars HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n' +
        'Content-Length: 1000000\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('reads and drops at most 1 MiB of a refused body, then cuts the connection', async () => {
    const { hostname, port } = new URL(sandbox.url);
    const outcome = await new Promise<{ response: string; written: number }>((resolve) => {
      const socket = connect(Number(port), hostname);
      let response = '';
      let written = 0;
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (response += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        resolve({ response, written });
      });
      socket.write(
        'POST /v2/dars HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n' +
          `Content-Length: ${String(64 * 1024 * 1024)}\r\n\r\n`,
      );
      // Keeps sending until the server hangs up (bounded: 64 MiB at most).
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (written < 64 * 1024 * 1024 && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    expect(outcome.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.written).toBeLessThan(64 * 1024 * 1024);
  });
});
