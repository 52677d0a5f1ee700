import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Caller } from '../auth/authorizer';
import {
  DecodeFailure,
  SandboxError,
  toErrorBody,
  type JsCantonErrorBody,
} from '../errors/sandbox-error';

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
  /** Vets the handshake before anything else (request-guard.ts); a refusal is the raw HTTP answer. */
  refuseUpgrade?(request: IncomingMessage): string | undefined;
};

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
    // The real server answers with `daml.ws.auth` whatever else the client offered (§4.1).
    handleProtocols: (protocols) => (protocols.has('daml.ws.auth') ? 'daml.ws.auth' : false),
  });

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
    wss.handleUpgrade(request, socket, head, (ws) => {
      serve(ws, request, channel);
    });
  };

  const serve = (ws: WebSocket, request: IncomingMessage, channel: StreamChannel) => {
    const headers = headersOf(request);
    const traceId =
      TRACEPARENT.exec(headers.get('traceparent') ?? '')?.[1] ?? randomBytes(16).toString('hex');
    const controller = new AbortController();
    ws.on('close', () => {
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
      void (async () => {
        try {
          const caller = await options.authenticate(headers);
          for await (const element of channel.open(
            data.toString('utf8'),
            caller,
            controller.signal,
          )) {
            if (controller.signal.aborted) return;
            await send(element);
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          await send(errorMessage(error, traceId, options.participantName)).catch(() => undefined);
        }
        if (ws.readyState === ws.OPEN) ws.close(1000);
      })();
    });
  };

  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
