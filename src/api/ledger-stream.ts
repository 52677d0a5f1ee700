import { STREAM_BATCH_PROTOCOL, splitStreamBatch } from '@ledger-console/edge/console-api';
import { env } from '@/env';
import { ApiError, networkError, toApiError } from '@/lib/errors/api-error';
import { readAccessToken } from './access-token';

/**
 * The JSON Ledger API's websocket streams (asyncapi.yaml; ledger-api-behaviour.md §10): the client
 * sends one request message and the participant answers with a sequence of messages, each an
 * element or a JsCantonError, then closes. The list endpoints stop at 200 elements; these do not,
 * which is why the active contracts and the live view read through them.
 */

export type LedgerStreamPath =
  | '/v2/updates'
  | '/v2/updates/flats'
  | '/v2/updates/trees'
  | '/v2/state/active-contracts'
  | '/v2/commands/completions';

export type LedgerStreamStatus =
  | { kind: 'connecting' }
  | { kind: 'open' }
  | { kind: 'reconnecting'; attempt: number; retryInMs: number; reason: string }
  /** The participant closed normally after its last element (a finite stream: ACS, a range). */
  | { kind: 'ended' }
  /** A JsCantonError message, or a handshake the participant refused: never retried. */
  | { kind: 'failed'; error: ApiError }
  /** Closed by the client. */
  | { kind: 'closed' };

export type LedgerStreamOptions = {
  path: LedgerStreamPath;
  /**
   * The request message, asked for anew on every (re)connect, so that a resumed stream can start
   * after the last offset seen.
   */
  request: () => unknown;
  /** Wire elements in arrival order, in batches at most every `batchMs`. */
  onElements: (elements: unknown[]) => void;
  onStatus?: (status: LedgerStreamStatus) => void;
  /** Reconnect with backoff after an abnormal close. Off by default: most streams are finite. */
  reconnect?: boolean;
  /**
   * Default 100 ms: at 1,000 updates/s, ten renders a second instead of a thousand. An element
   * after a quiet spell (the first of a connection, or one more than `batchMs` after the last
   * batch) goes out after FIRST_BATCH_MS instead, or once FIRST_BATCH_SIZE elements are in, so
   * that the first rows show without waiting for a whole batch.
   */
  batchMs?: number;
  /** How long the first element after a quiet spell waits for others; FIRST_BATCH_MS. */
  firstBatchMs?: number;
};

export type LedgerStream = { close(): void };

const DEFAULT_BATCH_MS = 100;
/** About one frame: the first screenful of a fast stream, shown as soon as it is there. */
export const FIRST_BATCH_MS = 16;
/**
 * About a screenful of rows: the first batch after a quiet spell goes out once it has as many.
 * Twenty 40 px rows fill a 70vh table on a 1,080 px screen; each row more is a millisecond or two
 * of the first render (mounting /contracts' rows cold), before anything shows (issue 29).
 */
export const FIRST_BATCH_SIZE = 20;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
/** A connection that stayed up this long was healthy: the next drop starts the backoff again. */
const HEALTHY_AFTER_MS = 5_000;
/** A handshake the participant does not answer within this time is given up and retried. */
const CONNECT_TIMEOUT_MS = 15_000;

// Canton answers a gRPC status with its usual HTTP status (ledger-api-behaviour.md §1); a stream
// error carries only the gRPC code, and the console's states read the HTTP one.
const HTTP_STATUS_OF_GRPC: Readonly<Record<number, number>> = {
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

function isErrorMessage(message: unknown): message is { code: string; cause: string } {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { code?: unknown }).code === 'string' &&
    typeof (message as { cause?: unknown }).cause === 'string'
  );
}

/** A JsCantonError message as the ApiError the same error would be on an HTTP endpoint. */
export function streamErrorOf(message: { code: string; cause: string }): ApiError {
  const grpc = (message as { grpcCodeValue?: unknown }).grpcCodeValue;
  const status = typeof grpc === 'number' ? (HTTP_STATUS_OF_GRPC[grpc] ?? 500) : 500;
  return toApiError(status, message);
}

/** ws(s)://<the console's origin><API base><path>: the console server proxies websockets. */
export function streamUrl(path: LedgerStreamPath): string {
  // The api tests (Node) have no location; there the API base is absolute (vite.config.ts).
  const page = typeof location === 'undefined' ? undefined : location.href;
  const base = new URL(env.API_BASE_URL || '/', page);
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${base.toString().replace(/\/$/, '')}${path}`;
}

/**
 * A browser cannot read why a websocket handshake was refused (401, 403, 400 all look like a
 * dropped connection), so the same request goes once to the list endpoint of the same path, which
 * validates and authorizes the same way and answers with the error body. An answer of 2xx (or no
 * answer) means the drop was the network's.
 */
async function whyRefused(path: LedgerStreamPath, body: unknown): Promise<ApiError | undefined> {
  const token = readAccessToken();
  try {
    const response = await globalThis.fetch(
      `${env.API_BASE_URL}${path}?limit=1&stream_idle_timeout_ms=1`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      },
    );
    if (response.ok) return undefined;
    const text = await response.text();
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // A plain-text body (a decoder's 400) stays text.
    }
    // 413 means the one element asked for was found: the request itself is fine.
    return response.status === 413 ? undefined : toApiError(response.status, payload);
  } catch {
    return undefined;
  }
}

/** The batch being gathered: how many elements, when it goes out at the latest, and how it began. */
export type GatheringBatch = { size: number; dueAt: number; isFirstAfterQuiet: boolean };

/**
 * The batch once one more element came in at `now`; the first element opens it. It is due
 * `batchMs` after the last batch, or `firstBatchMs` after an element that follows a quiet spell.
 */
export function gather(
  batch: GatheringBatch | undefined,
  now: number,
  lastBatchAt: number,
  batchMs: number,
  firstBatchMs = FIRST_BATCH_MS,
): GatheringBatch {
  if (batch) return { ...batch, size: batch.size + 1 };
  const firstDelay = Math.min(firstBatchMs, batchMs);
  const delay = Math.max(firstDelay, batchMs - (now - lastBatchAt));
  return { size: 1, dueAt: now + delay, isFirstAfterQuiet: delay === firstDelay };
}

/**
 * Whether the first batch after a quiet spell goes out with the element that just came in,
 * without waiting for its timer: once it is due, since a stream that floods the page keeps the
 * timer's task queued behind its messages (the first rows of 100,000 contracts waited 150-250 ms
 * for a 16 ms timer), or once it fills a screen. Later batches keep to their timer: a busy stream
 * renders at most every `batchMs`, in a task of its own.
 */
export function isDueOnArrival(batch: GatheringBatch, now: number): boolean {
  return batch.isFirstAfterQuiet && (now >= batch.dueAt || batch.size >= FIRST_BATCH_SIZE);
}

/** Opens a stream; `close()` ends it (and any pending reconnect) for good. */
export function openLedgerStream({
  path,
  request,
  onElements,
  onStatus = () => undefined,
  reconnect = false,
  batchMs = DEFAULT_BATCH_MS,
  firstBatchMs = FIRST_BATCH_MS,
}: LedgerStreamOptions): LedgerStream {
  let socket: WebSocket | undefined;
  let isClosedByClient = false;
  let hasFailed = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let pending: unknown[] = [];
  let gathering: GatheringBatch | undefined;
  /** When the last batch went out; none yet on a new connection. */
  let lastBatchAt = Number.NEGATIVE_INFINITY;

  const isOver = () => isClosedByClient || hasFailed;

  const flush = () => {
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flushTimer = undefined;
    gathering = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    lastBatchAt = performance.now();
    onElements(batch);
  };

  const fail = (error: ApiError) => {
    hasFailed = true;
    flush();
    onStatus({ kind: 'failed', error });
  };

  const connect = () => {
    const message = request();
    onStatus({ kind: 'connecting' });
    const token = readAccessToken();
    // The token first: the browser joins the offers with ", ", and the participant takes only an
    // element that starts with `jwt.token.` without trimming, so a later one (" jwt.token.…") is
    // not read (ledger-api-behaviour.md §4.1).
    // The console server's batches last (ADR 034): a participant answers `daml.ws.auth` anyway.
    const protocols = [
      ...(token ? [`jwt.token.${token}`] : []),
      'daml.ws.auth',
      STREAM_BATCH_PROTOCOL,
    ];
    let ws: WebSocket;
    try {
      ws = new globalThis.WebSocket(streamUrl(path), protocols);
    } catch (error) {
      fail(networkError(error));
      return;
    }
    socket = ws;
    lastBatchAt = Number.NEGATIVE_INFINITY;
    let openedAt: number | undefined;
    const connectTimer = setTimeout(() => {
      ws.close();
    }, CONNECT_TIMEOUT_MS);

    ws.addEventListener('open', () => {
      clearTimeout(connectTimer);
      openedAt = Date.now();
      onStatus({ kind: 'open' });
      ws.send(JSON.stringify(message));
    });
    const unreadable = () => {
      fail(
        new ApiError(0, {
          code: 'STREAM_MESSAGE_UNREADABLE',
          cause: 'The participant sent a stream message that is not JSON.',
        }),
      );
      ws.close();
    };
    /** One of the participant's messages; false once the stream has failed. */
    const receive = (text: string): boolean => {
      let element: unknown;
      try {
        element = JSON.parse(text);
      } catch {
        unreadable();
        return false;
      }
      if (isErrorMessage(element)) {
        fail(streamErrorOf(element));
        return false;
      }
      pending.push(element);
      const now = performance.now();
      gathering = gather(gathering, now, lastBatchAt, batchMs, firstBatchMs);
      if (isDueOnArrival(gathering, now)) {
        flush();
        return true;
      }
      flushTimer ??= setTimeout(flush, gathering.dueAt - now);
      return true;
    };
    ws.addEventListener('message', (event: MessageEvent) => {
      if (hasFailed || isClosedByClient) return;
      const data: unknown = event.data;
      const texts =
        ws.protocol === STREAM_BATCH_PROTOCOL && typeof data === 'string'
          ? splitStreamBatch(data)
          : [String(data)];
      if (texts === undefined) {
        unreadable();
        return;
      }
      for (const text of texts) {
        if (!receive(text)) return;
      }
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      clearTimeout(connectTimer);
      if (socket === ws) socket = undefined;
      flush();
      if (isClosedByClient || hasFailed) return;
      if (event.code === 1000) {
        onStatus({ kind: 'ended' });
        return;
      }
      const wasHealthy = openedAt !== undefined && Date.now() - openedAt > HEALTHY_AFTER_MS;
      if (wasHealthy) attempt = 0;
      const reason =
        openedAt === undefined
          ? 'The connection could not be opened'
          : `The connection closed (code ${String(event.code)})`;
      void (async () => {
        // Only a handshake that failed may have been a refusal; a dropped stream was accepted.
        const refusal = openedAt === undefined ? await whyRefused(path, message) : undefined;
        // close() may have been called while the answer was awaited.
        if (isOver()) return;
        if (refusal) {
          fail(refusal);
          return;
        }
        if (!reconnect) {
          fail(networkError(new Error(reason)));
          return;
        }
        attempt += 1;
        const retryInMs = Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS);
        onStatus({ kind: 'reconnecting', attempt, retryInMs, reason });
        retryTimer = setTimeout(connect, retryInMs);
      })();
    });
  };

  connect();

  return {
    close() {
      if (isClosedByClient) return;
      isClosedByClient = true;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      if (flushTimer !== undefined) clearTimeout(flushTimer);
      pending = [];
      socket?.close(1000);
      socket = undefined;
      onStatus({ kind: 'closed' });
    },
  };
}
