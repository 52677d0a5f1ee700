import { bodyLimitFor, type BodyLimits } from '@ledger-console/edge/body-limits';
import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../errors/sandbox-error';
import type { SandboxEnv } from './sandbox-env';

/** A body over the limit, as the participant's JSON layer refuses it (limits: @ledger-console/edge/body-limits). */
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
      // From a socket, Node's HTTP parser ends the body at the Content-Length it announced, so
      // one announced within the limit stays within it: nothing to count, and the route reads
      // the body straight from the socket (@hono/node-server's fast path) instead of through
      // two web streams. A Request built in process carries no such guarantee and is counted.
      if (Number.isFinite(length) && isFromSocket(c.env)) {
        await next();
        return;
      }
    }
    // A GET's or HEAD's body never reaches the fetch Request (readIncomingText reads it), and
    // asking for it would only build one, stream and all.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      await next();
      return;
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

/** @hono/node-server passes the Node request as `env.incoming`; an in-process call has none. */
function isFromSocket(env: unknown): boolean {
  return typeof env === 'object' && env !== null && 'incoming' in env;
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
