import type { IncomingMessage } from 'node:http';

/**
 * pekko-http's default `max-content-length`, which the participant's JSON API does not override
 * (ledger-api-behaviour.md §10, §12: inferred, not confirmed).
 */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** The gRPC Ledger API's inbound message limit behind the DAR endpoints (§10). */
export const DEFAULT_MAX_DAR_BYTES = 64 * 1024 * 1024;

/** The endpoints whose body is a raw DAR (§6). */
const DAR_UPLOAD_PATHS = new Set(['/v2/packages', '/v2/dars', '/v2/dars/validate']);

/** The body limits of the console's proxy and of the sandbox (`--max-request-bytes`, `--max-dar-bytes`). */
export type BodyLimits = {
  /** Largest body of any request but a DAR upload; default 8 MiB. */
  maxRequestBytes?: number;
  /** Largest body of `POST /v2/packages`, `/v2/dars` and `/v2/dars/validate`; default 64 MiB. */
  maxDarBytes?: number;
};

/** The body limit that applies to a request, by its method and path (without the query). */
export function bodyLimitFor(method: string, path: string, limits: BodyLimits): number {
  const isDarUpload = method === 'POST' && DAR_UPLOAD_PATHS.has(path.replace(/\/+$/, ''));
  return isDarUpload
    ? (limits.maxDarBytes ?? DEFAULT_MAX_DAR_BYTES)
    : (limits.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES);
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
