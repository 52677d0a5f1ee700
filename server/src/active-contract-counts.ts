import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  MAX_ACTIVE_CONTRACT_COUNT,
  MAX_COUNTED_STAKEHOLDERS,
  type ActiveContractCounts,
  type ActiveContractCountsRequest,
} from '@ledger-console/edge/console-api';
import { drainBriefly } from '@ledger-console/edge/body-limits';
import WebSocket from 'ws';
import {
  ConsoleRequestError,
  consoleErrorBody,
  isRecord,
  sendJsonNoStore,
} from './participant-caller';

/**
 * `POST /__console/active-contract-counts` (ACTIVE_CONTRACT_COUNTS_PATH, ADR 021): counts the
 * caller's active contracts per template. The participant sends one websocket message per
 * contract, which a browser on a busy machine handles at a few thousand a second; Node reads the
 * same stream several times faster. The server opens the stream exactly as the page would — the
 * caller's own token as the `jwt.token.` subprotocol, the caller's own request — so what is
 * counted is what the participant lets that caller read, and the server adds no privilege.
 */

export type ActiveContractCountsOptions = {
  /** Largest request body; default 1 MiB (a filter by party for thousands of parties fits). */
  maxRequestBytes?: number;
  /** Time allowed for the whole count, handshake included; default 60 s. */
  timeoutMs?: number;
  /** Counts running at once; more answer 503. Default 4. */
  maxConcurrent?: number;
};

export type ActiveContractCountsHandler = {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Ends every running count (the server is closing). */
  close(): void;
};

const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_CONCURRENT = 4;
/** One contract of the stream, created event and all: far below what a participant sends. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** A handshake refusal's body, relayed to the caller. */
const MAX_REFUSAL_BYTES = 64 * 1024;
/** Distinct template ids answered: a package name filter may match several versions, never this many. */
const MAX_TEMPLATE_IDS = 10_000;
const MAX_PACKAGE_ID_CHARS = 256;
const STREAM_PATH = '/v2/state/active-contracts';
const INVALID = 'LEDGER_CONSOLE_INVALID_COUNT_REQUEST';

// Canton answers a gRPC status with its usual HTTP status (ledger-api-behaviour.md §1); a stream
// error message carries only the gRPC code.
const HTTP_STATUS_OF_GRPC: Readonly<Record<number, number>> = {
  3: 400,
  4: 504,
  5: 404,
  7: 403,
  8: 429,
  9: 400,
  13: 500,
  14: 503,
  16: 401,
};

/** An answer of this endpoint's other than a count. */
class CountError extends ConsoleRequestError {}

/** An answer of the participant's, relayed as it came (its status, its body). */
type Relayed = { kind: 'relayed'; status: number; body: string };

const invalid = (cause: string) => new CountError(400, INVALID, cause);

/** The request body, checked; throws CountError for anything off. */
export function parseCountRequest(text: string): Required<
  Omit<ActiveContractCountsRequest, 'packageId'>
> & {
  packageId: string | undefined;
} {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid('The body is not JSON: send { "activeAtOffset": …, "eventFormat": { … } }.');
  }
  if (!isRecord(body)) throw invalid('The body must be a JSON object.');
  const known = new Set(['activeAtOffset', 'eventFormat', 'packageId', 'limit']);
  const unknown = Object.keys(body).find((key) => !known.has(key));
  if (unknown !== undefined) {
    throw invalid(
      `Unknown field ${unknown.slice(0, 64)}; known: activeAtOffset, eventFormat, packageId, limit.`,
    );
  }
  const { activeAtOffset, eventFormat, packageId, limit = MAX_ACTIVE_CONTRACT_COUNT } = body;
  if (typeof activeAtOffset !== 'number' || !Number.isSafeInteger(activeAtOffset)) {
    throw invalid('activeAtOffset must be a whole number (an offset of the ledger).');
  }
  if (activeAtOffset < 0) throw invalid('activeAtOffset must not be negative.');
  if (!isRecord(eventFormat)) throw invalid('eventFormat must be an object (an EventFormat).');
  if (
    packageId !== undefined &&
    (typeof packageId !== 'string' || packageId === '' || packageId.length > MAX_PACKAGE_ID_CHARS)
  ) {
    throw invalid(
      `packageId must be a package id of 1 to ${String(MAX_PACKAGE_ID_CHARS)} characters.`,
    );
  }
  if (
    typeof limit !== 'number' ||
    !Number.isSafeInteger(limit) ||
    limit < 1 ||
    limit > MAX_ACTIVE_CONTRACT_COUNT
  ) {
    throw invalid(`limit must be a whole number from 1 to ${String(MAX_ACTIVE_CONTRACT_COUNT)}.`);
  }
  return { activeAtOffset, eventFormat, packageId, limit };
}

/** The request body as text, at most `maxBytes`; throws CountError 413 beyond. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const tooLarge = () =>
    new CountError(
      413,
      'REQUEST_ENTITY_TOO_LARGE',
      `The request body is larger than ${String(maxBytes)} bytes.`,
    );
  if (declared > maxBytes) {
    drainBriefly(req);
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        drainBriefly(req);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', reject);
  });
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}

/** The contract's created event, when the element is an active contract. */
function createdEventOf(element: unknown): Record<string, unknown> | undefined {
  if (!isRecord(element) || !isRecord(element.contractEntry)) return undefined;
  const active = element.contractEntry.JsActiveContract;
  if (!isRecord(active) || !isRecord(active.createdEvent)) return undefined;
  return active.createdEvent;
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function isErrorMessage(message: unknown): message is Record<string, unknown> {
  return isRecord(message) && typeof message.code === 'string' && typeof message.cause === 'string';
}

/** Reads the stream to its end (or the limit) with the caller's token. */
function count(
  streamUrl: string,
  token: string | undefined,
  request: ReturnType<typeof parseCountRequest>,
  timeoutMs: number,
  running: Set<() => void>,
  clientGone: AbortSignal,
): Promise<ActiveContractCounts | Relayed> {
  const counts: ActiveContractCounts = {
    total: 0,
    byTemplateId: {},
    isComplete: true,
    stakeholders: [],
  };
  const stakeholders = new Set<string>();
  const note = (parties: unknown) => {
    if (!Array.isArray(parties)) return;
    for (const party of parties) {
      if (stakeholders.size >= MAX_COUNTED_STAKEHOLDERS) return;
      if (typeof party === 'string') stakeholders.add(party);
    }
  };
  const prefix = request.packageId === undefined ? undefined : `${request.packageId}:`;
  // The page's own offers, token first (ledger-api-behaviour.md §4.1).
  const protocols = token === undefined ? ['daml.ws.auth'] : [`jwt.token.${token}`, 'daml.ws.auth'];

  return new Promise<ActiveContractCounts | Relayed>((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(streamUrl, protocols, {
        handshakeTimeout: timeoutMs,
        maxPayload: MAX_MESSAGE_BYTES,
        followRedirects: false,
      });
    } catch (error) {
      // ws refuses a subprotocol with characters a header cannot carry: no token a participant issues.
      reject(
        new CountError(
          400,
          INVALID,
          `The Authorization header carries no usable bearer token: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return;
    }
    let settled = false;
    const finish = (outcome: ActiveContractCounts | Relayed | CountError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      running.delete(cancel);
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        ws.terminate();
      if (outcome instanceof CountError) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => {
      finish(
        new CountError(
          504,
          'LEDGER_RESPONSE_TIMEOUT',
          `Counting took longer than ${String(timeoutMs / 1000)} s; ${String(counts.total)} contracts were counted by then.`,
        ),
      );
    }, timeoutMs);
    const cancel = () => {
      finish(new CountError(503, 'LEDGER_CONSOLE_CLOSING', 'Ledger Console is shutting down.'));
    };
    running.add(cancel);
    clientGone.addEventListener('abort', () => {
      finish(new CountError(400, 'CLIENT_CLOSED_REQUEST', 'The caller went away.'));
    });

    ws.on('unexpected-response', (_req, res) => {
      // The participant refused the handshake (401, 403, 400…): its own answer, as it sent it.
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REFUSAL_BYTES) chunks.push(chunk);
      });
      res.on('end', () => {
        finish({
          kind: 'relayed',
          status: res.statusCode ?? 502,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', () => {
        finish({ kind: 'relayed', status: res.statusCode ?? 502, body: '' });
      });
    });
    ws.on('open', () => {
      ws.send(
        JSON.stringify({
          activeAtOffset: request.activeAtOffset,
          eventFormat: request.eventFormat,
        }),
      );
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (settled) return;
      let element: unknown;
      try {
        element = JSON.parse(rawText(data));
      } catch {
        finish(
          new CountError(
            502,
            'LEDGER_CONSOLE_UNREADABLE_STREAM',
            'The participant sent a message that is not JSON.',
          ),
        );
        return;
      }
      if (isErrorMessage(element)) {
        const grpc = element.grpcCodeValue;
        const status = typeof grpc === 'number' ? (HTTP_STATUS_OF_GRPC[grpc] ?? 500) : 500;
        finish({ kind: 'relayed', status, body: JSON.stringify(element) });
        return;
      }
      const event = createdEventOf(element);
      if (!event || typeof event.templateId !== 'string') return;
      const templateId = event.templateId;
      if (prefix !== undefined && !templateId.startsWith(prefix)) return;
      if (counts.total >= request.limit) {
        counts.isComplete = false;
        finish(counts);
        return;
      }
      const known = counts.byTemplateId[templateId];
      if (known === undefined && Object.keys(counts.byTemplateId).length >= MAX_TEMPLATE_IDS) {
        return;
      }
      counts.total++;
      counts.byTemplateId[templateId] = (known ?? 0) + 1;
      if (stakeholders.size < MAX_COUNTED_STAKEHOLDERS) {
        note(event.signatories);
        note(event.observers);
      }
    });
    ws.on('close', (code) => {
      // 1000 after the last element; anything else cut the stream short, so the count is not one.
      if (code === 1000) finish(counts);
      else {
        finish(
          new CountError(
            502,
            'LEDGER_CONSOLE_STREAM_CUT',
            `The participant's stream ended abnormally (close code ${String(code)}) after ${String(counts.total)} contracts.`,
          ),
        );
      }
    });
    ws.on('error', (error) => {
      finish(
        new CountError(
          502,
          'LEDGER_UNREACHABLE',
          `Ledger Console could not read the participant's active contracts: ${error.message}`,
        ),
      );
    });
  }).then((outcome): ActiveContractCounts | Relayed =>
    'kind' in outcome ? outcome : { ...outcome, stakeholders: [...stakeholders].sort() },
  );
}

/** The request handler of `POST /__console/active-contract-counts`. */
export function createActiveContractCountsHandler(
  ledgerUrl: URL,
  {
    maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    maxConcurrent = DEFAULT_MAX_CONCURRENT,
  }: ActiveContractCountsOptions = {},
): ActiveContractCountsHandler {
  const base = new URL(ledgerUrl.href);
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  const streamUrl = `${base.href.replace(/\/$/, '')}${STREAM_PATH}`;
  const cancels = new Set<() => void>();
  let running = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const gone = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      let counted = false;
      try {
        if (req.method !== 'POST') {
          res.setHeader('Allow', 'POST');
          req.resume();
          throw new CountError(405, 'LEDGER_CONSOLE_METHOD_NOT_ALLOWED', 'Use POST.');
        }
        if (running >= maxConcurrent) {
          req.resume();
          throw new CountError(
            503,
            'LEDGER_CONSOLE_BUSY',
            `${String(maxConcurrent)} counts are running already; try again in a moment.`,
          );
        }
        running++;
        counted = true;
        const request = parseCountRequest(await readBody(req, maxRequestBytes));
        const outcome = await count(
          streamUrl,
          bearerToken(req.headers.authorization),
          request,
          timeoutMs,
          cancels,
          gone.signal,
        );
        if ('kind' in outcome) {
          res.writeHead(outcome.status, {
            'Content-Type': 'application/json',
            'Cache-Control': 'no-store',
          });
          res.end(outcome.body);
          return;
        }
        sendJsonNoStore(res, 200, outcome);
      } catch (error) {
        if (res.headersSent || res.destroyed) return;
        const failure =
          error instanceof CountError
            ? error
            : new CountError(
                502,
                'LEDGER_UNREACHABLE',
                `Counting failed: ${error instanceof Error ? error.message : String(error)}`,
              );
        sendJsonNoStore(
          res,
          failure.status,
          consoleErrorBody(failure.status, failure.code, failure.message, failure.context),
        );
      } finally {
        if (counted) running--;
      }
    })();
  };

  return {
    handle,
    close: () => {
      for (const cancel of [...cancels]) cancel();
    },
  };
}
