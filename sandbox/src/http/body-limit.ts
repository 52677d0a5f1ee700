import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../errors/sandbox-error';
import type { SandboxEnv } from './sandbox-env';

/**
 * pekko-http's default `max-content-length`, which the JSON API does not override (§10, §12:
 * inferred, not confirmed).
 */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** The gRPC Ledger API's inbound message limit behind the DAR endpoints (§10). */
export const DEFAULT_MAX_DAR_BYTES = 64 * 1024 * 1024;

/** The endpoints whose body is a raw DAR (§6). */
const DAR_UPLOAD_PATHS = new Set(['/v2/packages', '/v2/dars', '/v2/dars/validate']);

export type BodyLimits = {
  /** Largest body of any request but a DAR upload; default 8 MiB. */
  maxRequestBytes?: number;
  /** Largest body of `POST /v2/packages`, `/v2/dars` and `/v2/dars/validate`; default 64 MiB. */
  maxDarBytes?: number;
};

export function requestTooLarge(limit: number, announced?: number): SandboxError {
  const size =
    announced === undefined ? 'The request body' : `The request body of ${String(announced)} bytes`;
  return new SandboxError(
    'REQUEST_ENTITY_TOO_LARGE',
    `${size} exceeds the limit of ${String(limit)} bytes`,
    { origin: 'json', httpStatus: 413, context: { limit: String(limit) } },
  );
}

export const isRequestTooLarge = (error: unknown): error is SandboxError =>
  error instanceof SandboxError && error.code === 'REQUEST_ENTITY_TOO_LARGE';

/** The body limit that applies to a request. */
export function bodyLimitFor(method: string, path: string, limits: BodyLimits): number {
  const isDarUpload = method === 'POST' && DAR_UPLOAD_PATHS.has(path.replace(/\/+$/, ''));
  return isDarUpload
    ? (limits.maxDarBytes ?? DEFAULT_MAX_DAR_BYTES)
    : (limits.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES);
}

/**
 * Refuses a body over the limit: by its Content-Length before a byte of it is read, and, for a
 * chunked body, as soon as the bytes read pass the limit (the body is counted as the route reads
 * it, so a route that refuses first, e.g. for want of rights, never reads it at all).
 */
export function bodyLimit(limits: BodyLimits): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const limit = bodyLimitFor(c.req.method, c.req.path, limits);
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      const length = Number(declared);
      if (Number.isFinite(length) && length > limit) throw requestTooLarge(limit, length);
    }
    const body = c.req.raw.body;
    if (body) {
      let size = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.byteLength;
            if (size > limit) controller.error(requestTooLarge(limit));
            else controller.enqueue(chunk);
          },
        }),
      );
      c.req.raw = new Request(c.req.raw, { body: counted, duplex: 'half' } as RequestInit);
    }
    await next();
  };
}

/**
 * Reads a Node request body the fetch Request does not carry (a GET's), under the same limit.
 */
export async function readIncomingText(
  incoming: AsyncIterable<unknown>,
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    const bytes = Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > limit) throw requestTooLarge(limit);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What is read and dropped of a refused body before the connection is cut. */
const DRAIN_MAX_BYTES = 1024 * 1024;
const DRAIN_MAX_MS = 5000;

/**
 * After refusing a body it did not read: reads and drops what the client still sends, within a
 * bound, then cuts the connection. Closing at once, with unread data, resets the connection,
 * and a client still sending then sees a network error instead of the 413; draining without
 * a bound would let a client announce a terabyte and keep the connection forever.
 */
export function drainBriefly(
  incoming: IncomingMessage,
  { maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS } = {},
): void {
  if (incoming.complete || incoming.destroyed) return;
  let drained = 0;
  const cut = () => {
    clearTimeout(timer);
    incoming.socket.destroy();
  };
  const timer = setTimeout(cut, maxMs);
  timer.unref();
  incoming.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBytes) cut();
  });
  incoming.once('end', () => {
    clearTimeout(timer);
  });
  incoming.once('close', () => {
    clearTimeout(timer);
  });
  incoming.resume();
}

/** A byte count from the command line (`--max-request-bytes`…): a positive whole number. */
export function parseByteCount(value: string, flag: string): number {
  const count = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(count) || count <= 0) {
    throw new Error(`${flag} must be a positive number of bytes, got "${value}"`);
  }
  return count;
}
