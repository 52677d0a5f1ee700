import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Caller } from '../auth/authorizer';
import type { JsCantonErrorBody } from '@ledger-console/edge/error-body';
import { DecodeFailure, SandboxError, toErrorBody, unauthenticated } from '../errors/sandbox-error';

/**
 * One websocket endpoint of the AsyncAPI document: the client sends one request message, the
 * server answers with a sequence of messages and closes when the stream ends (§10).
 */
export type StreamChannel = {
  /** Decodes and checks the request, then yields the wire elements. */
  open(message: string, caller: Caller, signal: AbortSignal): AsyncIterable<unknown>;
};

export type WebsocketOptions = {
  channels: ReadonlyMap<string, StreamChannel>;
  authenticate(headers: Headers): Promise<Caller>;
  participantName: string;
  /** Vets the handshake before anything else (the edge package's request guard); a refusal is the raw HTTP answer. */
  refuseUpgrade?(request: IncomingMessage): string | undefined;
  /** Largest request message accepted; a bigger one closes the socket with 1009. Default 1 MiB. */
  maxMessageBytes?: number;
  /** How long an open socket may wait before sending its request message. Default 30 s. */
  requestTimeoutMs?: number;
};

/**
 * A request message is a filter (parties, template ids, offsets); even thousands of parties fit
 * in well under 1 MiB. The real server's limit is not documented (inferred).
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** Errors travel as JsCantonError messages, never as close frames (§10). */
function errorMessage(error: unknown, traceId: string, participant: string): JsCantonErrorBody {
  const sandboxError =
    error instanceof SandboxError
      ? error
      : error instanceof DecodeFailure
        ? // The websocket path has no text/plain response to give: the decoder's words go into
          // an INVALID_ARGUMENT body instead (inferred).
          new SandboxError('INVALID_ARGUMENT', error.message, { origin: 'json' })
        : new SandboxError(
            'LEDGER_API_INTERNAL_ERROR',
            error instanceof Error ? error.message : String(error),
            { origin: 'json' },
          );
  return toErrorBody(sandboxError, { traceId, participant, loggingContext: {} });
}

/**
 * Serves the sandbox's websocket streams on an HTTP server: authenticates the upgrade request
 * like any JSON endpoint (Authorization or `Sec-WebSocket-Protocol: jwt.token.…`), answers with
 * the `daml.ws.auth` subprotocol, and pipes the channel's elements to the socket.
 */
export function attachWebsocketStreams(server: Server, options: WebsocketOptions) {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    // The real server answers with `daml.ws.auth` whatever else the client offered (§4.1).
    handleProtocols: (protocols) => (protocols.has('daml.ws.auth') ? 'daml.ws.auth' : false),
  });

  let closed = false;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = options.refuseUpgrade?.(request);
    if (refusal !== undefined) {
      socket.end(refusal);
      return;
    }
    const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
    const channel = options.channels.get(path);
    if (!channel) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    void (async () => {
      const headers = headersOf(request);
      const traceId =
        TRACEPARENT.exec(headers.get('traceparent') ?? '')?.[1] ?? randomBytes(16).toString('hex');
      // Authenticated before upgrading, so a client without a valid token never holds a socket
      // (see docs/sandbox-fidelity.md for how this differs from the real participant).
      let caller: Caller;
      try {
        caller = await options.authenticate(headers);
        if (caller === undefined) throw unauthenticated();
      } catch (error) {
        if (!socket.destroyed) socket.end(refusalResponse(error, traceId, options.participantName));
        return;
      }
      // A handshake authenticated after close() must not open a stream on a closed ledger.
      if (closed) socket.destroy();
      if (socket.destroyed) return;
      wss.handleUpgrade(request, socket, head, (ws) => {
        serve(ws, { caller, traceId }, channel);
      });
    })();
  };

  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const serve = (
    ws: WebSocket,
    { caller, traceId }: { caller: Caller; traceId: string },
    channel: StreamChannel,
  ) => {
    const controller = new AbortController();
    // A socket that never sends its request would otherwise stay open for good.
    const requestTimer = setTimeout(() => {
      ws.close(1008, `No request message within ${String(requestTimeoutMs)} ms`);
    }, requestTimeoutMs);
    ws.on('close', () => {
      clearTimeout(requestTimer);
      controller.abort();
    });
    // A protocol error from the peer (unmasked or oversized frame…) ends this stream only; an
    // 'error' event nobody listens to would take the whole process down.
    ws.on('error', () => {
      controller.abort();
      ws.terminate();
    });
    const send = (value: unknown) =>
      new Promise<void>((resolve, reject) => {
        ws.send(JSON.stringify(value), (error) => {
          if (error) reject(error);
          else resolve();
        });
      });
    // Only the first message counts; later ones are ignored (§10).
    ws.once('message', (data: Buffer) => {
      clearTimeout(requestTimer);
      void (async () => {
        for await (const message of streamMessages(channel, data.toString('utf8'), {
          caller,
          traceId,
          participantName: options.participantName,
          signal: controller.signal,
        })) {
          if (controller.signal.aborted) return;
          try {
            await send(message);
          } catch {
            return;
          }
        }
        if (ws.readyState === ws.OPEN) ws.close(1000);
      })();
    });
  };

  server.on('upgrade', onUpgrade);
  return {
    close() {
      closed = true;
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

/**
 * What a stream sends for one request message, whatever carries it (a socket here; the console's
 * component tests drive it in process): the channel's elements, then at most one JsCantonError
 * message for a failure, which never becomes a close frame (§10). Ends when the stream does or
 * `signal` aborts.
 */
export async function* streamMessages(
  channel: StreamChannel,
  message: string,
  {
    caller,
    traceId,
    participantName,
    signal,
  }: { caller: Caller; traceId: string; participantName: string; signal: AbortSignal },
): AsyncGenerator {
  try {
    for await (const element of channel.open(message, caller, signal)) {
      if (signal.aborted) return;
      yield element;
    }
  } catch (error) {
    if (signal.aborted) return;
    yield errorMessage(error, traceId, participantName);
  }
}

/** The plain HTTP answer to a handshake that is refused: the error's status and JSON body. */
function refusalResponse(error: unknown, traceId: string, participant: string): string {
  const sandboxError =
    error instanceof SandboxError
      ? error
      : new SandboxError(
          'LEDGER_API_INTERNAL_ERROR',
          error instanceof Error ? error.message : String(error),
          { origin: 'json' },
        );
  const body = JSON.stringify(errorMessage(sandboxError, traceId, participant));
  const status = sandboxError.httpStatus;
  return (
    `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? ''}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${String(Buffer.byteLength(body))}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}
