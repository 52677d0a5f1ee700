import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';

/**
 * Sends `head` (and optionally more) over a raw socket and resolves with the first complete
 * response read back, without waiting for the server to close the connection.
 */
export function rawExchange(url: string, head: string, { timeoutMs = 3000 } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise<{ response: string; elapsedMs: number }>((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let response = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${String(timeoutMs)} ms: ${response}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, elapsedMs: performance.now() - started });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      response += chunk;
      const headEnd = response.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(response.slice(0, headEnd));
      const body = response.slice(headEnd + 4);
      if (length ? Buffer.byteLength(body) >= Number(length[1]) : body.endsWith('0\r\n\r\n')) {
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(head);
  });
}

/** The body of a raw HTTP response. */
export const bodyOf = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4);

export type SentResponse = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * One request over node:http rather than fetch: fetch resolves dot segments in the path and will
 * not set Host, Origin or Sec-Fetch-* headers, which the request-guard tests must control.
 */
export function send(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: options.method ?? 'GET',
      path: options.path,
      headers: options.headers ?? {},
      timeout: 5000,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The keys of a JsCantonError body, in the order the participant prints them. */
export const JS_CANTON_ERROR_KEYS = [
  'code',
  'cause',
  'correlationId',
  'traceId',
  'context',
  'resources',
  'errorCategory',
  'grpcCodeValue',
  'retryInfo',
  'definiteAnswer',
] as const;

/** Starts `server` on a free loopback port; resolves with its base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}
