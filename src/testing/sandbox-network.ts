import { vi } from 'vitest';
import { STREAM_BATCH_PROTOCOL } from '@ledger-console/edge/console-api';
import { forgetTokenlessAccess } from '@/api/tokenless-access';
import {
  createSandbox,
  createSandboxFleet,
  type Sandbox,
  type SandboxOptions,
} from '../../sandbox/src/index';

export { createSandbox, createSandboxFleet };
export { hs256Token, TEST_SECRET } from '../../sandbox/src/testing/index';
export type { Sandbox, SandboxOptions };

export type NetworkHandler = (request: Request) => Promise<Response>;

/**
 * Something in front of the sandbox, as a network or proxy in between would be: to make the
 * participant unreachable, or to answer with a state the sandbox cannot produce.
 */
export type NetworkIntercept = (
  request: Request,
  sandboxFetch: NetworkHandler,
) => Promise<Response>;

export type SandboxNetworkOptions = {
  /** The participant behind the API; a fresh in-process sandbox by default. */
  sandbox?: Sandbox;
  /** In place from the first request on; change it later with `intercept`. */
  intercept?: NetworkIntercept;
  /**
   * Whether streams answer a page's batch offer as the console server does (ADR 034): default
   * true; false is a participant reached another way (the dev server's proxy), one message a frame.
   */
  streamBatches?: boolean;
};

/**
 * Points `globalThis.fetch` at an in-process sandbox for the current test (vitest's
 * `unstubGlobals` restores it), so the real API client runs end to end without a port.
 */
export function routeFetchToSandbox({
  sandbox = createSandbox(),
  intercept = (request, sandboxFetch) => sandboxFetch(request),
  streamBatches = true,
}: SandboxNetworkOptions = {}) {
  // Another participant: what the console learned about the previous one's auth does not hold.
  forgetTokenlessAccess();
  const sandboxFetch: NetworkHandler = (request) => Promise.resolve(sandbox.fetch(request));
  let handler: NetworkHandler = (request) => intercept(request, sandboxFetch);
  // Node's Request needs absolute URLs, which vite.config.ts provides through VITE_API_BASE_URL.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init)),
  );
  // jsdom's own XMLHttpRequest would go to the real network; the DAR upload needs one.
  vi.stubGlobal(
    'XMLHttpRequest',
    sandboxXmlHttpRequest((request) => handler(request)),
  );
  const streams = sandboxWebSocket(
    (path, headers) => sandbox.connectStream(path, headers),
    streamBatches,
  );
  vi.stubGlobal('WebSocket', streams.WebSocket);
  return {
    sandbox,
    sandboxFetch,
    /**
     * Ends every open websocket stream as a dropped connection would (close code 1006, as the
     * browser reports it), to test reconnecting.
     */
    dropStreams: streams.dropAll,
    /** How many websocket streams are open now. */
    openStreamCount: () => streams.openCount(),
    /** Replaces the intercept for all requests from now on. */
    intercept: (next: NetworkIntercept) => {
      handler = (request) => next(request, sandboxFetch);
    },
  };
}

/** One participant of a fleet in the tests: the name the console server would list it under. */
export type FleetTestMember = { name: string; sandbox: Sandbox };

export type ParticipantsNetworkOptions = {
  /**
   * In front of every member, as the network between browser and console would be; `forward`
   * routes the request as the console server would. Change it later with `intercept`.
   */
  intercept?: NetworkIntercept;
  /**
   * What the console server itself answers (`/__console/participants` and the like) before any
   * member is asked; undefined passes the request on to the routing.
   */
  console?: (request: Request) => Promise<Response | undefined>;
  /** As {@link SandboxNetworkOptions.streamBatches}; default true. */
  streamBatches?: boolean;
};

/**
 * Points fetch, XMLHttpRequest and WebSocket at several in-process sandboxes, routed as the
 * console server routes a fleet: `/participants/NAME/…` to member NAME (with the prefix removed),
 * anything unprefixed to the first member; an unknown name gets the server's 404.
 */
export function routeFetchToParticipants(
  members: readonly FleetTestMember[],
  {
    intercept = (request, forward) => forward(request),
    console,
    streamBatches = true,
  }: ParticipantsNetworkOptions = {},
) {
  const first = members[0];
  if (!first) throw new Error('routeFetchToParticipants needs at least one member');
  forgetTokenlessAccess();
  const byName = new Map(members.map((member) => [member.name, member.sandbox]));
  /** The member a path belongs to and the path as that member serves it. */
  const route = (pathname: string): { sandbox: Sandbox | undefined; path: string } => {
    const match = /^\/participants\/([^/]+)(\/.*)?$/.exec(pathname);
    if (!match) return { sandbox: first.sandbox, path: pathname };
    return { sandbox: byName.get(match[1] ?? ''), path: match[2] ?? '/' };
  };
  const forward: NetworkHandler = async (request) => {
    const answered = await console?.(request);
    if (answered) return answered;
    const url = new URL(request.url);
    const { sandbox, path } = route(url.pathname);
    if (!sandbox) {
      return Response.json(
        { code: 'LEDGER_CONSOLE_UNKNOWN_PARTICIPANT', cause: 'No such participant' },
        { status: 404 },
      );
    }
    if (path === url.pathname) return sandbox.fetch(request);
    url.pathname = path;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return sandbox.fetch(
      new Request(url, {
        method: request.method,
        headers: request.headers,
        signal: request.signal,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      }),
    );
  };
  let handler: NetworkHandler = (request) => intercept(request, forward);
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init)),
  );
  vi.stubGlobal(
    'XMLHttpRequest',
    sandboxXmlHttpRequest((request) => handler(request)),
  );
  const streams = sandboxWebSocket((pathname, headers) => {
    const { sandbox, path } = route(pathname);
    if (!sandbox) return Promise.reject(new Error('No such participant'));
    return sandbox.connectStream(path, headers);
  }, streamBatches);
  vi.stubGlobal('WebSocket', streams.WebSocket);
  return {
    members,
    /** Sends as the console server would route it, past any intercept. */
    forward,
    openStreamCount: () => streams.openCount(),
    /** Replaces the intercept for all requests from now on. */
    intercept: (next: NetworkIntercept) => {
      handler = (request) => next(request, forward);
    },
  };
}

/** How many bytes a browser might report per upload progress event; small enough to see steps. */
const UPLOAD_CHUNK_BYTES = 64 * 1024;

const macrotask = () =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, 0);
  });

function progressEvent(type: string, loaded: number, total: number): Event {
  const init = { lengthComputable: true, loaded, total };
  // Node (the api tests' environment) has no ProgressEvent; jsdom and browsers do.
  return typeof ProgressEvent === 'function'
    ? new ProgressEvent(type, init)
    : Object.assign(new Event(type), init);
}

/**
 * An `XMLHttpRequest` that sends to `handler` instead of the network, firing what a browser fires
 * for a request with a body: upload `loadstart`, `progress` per chunk sent, `load` and `loadend`
 * once the body is out, then `readystatechange`, `load` (or `error`, for a network failure) and
 * `loadend` on the request; `abort()` fires `abort` on the upload while it is still sending, and
 * on the request. Only what the console uses: async requests with a text response, listened to
 * with `addEventListener`.
 */
function sandboxXmlHttpRequest(handler: NetworkHandler): typeof XMLHttpRequest {
  class SandboxXmlHttpRequest extends EventTarget {
    static readonly UNSENT = 0;
    static readonly OPENED = 1;
    static readonly HEADERS_RECEIVED = 2;
    static readonly LOADING = 3;
    static readonly DONE = 4;

    readonly upload = new EventTarget();
    readyState = 0;
    status = 0;
    statusText = '';
    responseText = '';
    responseType: XMLHttpRequestResponseType = '';
    responseURL = '';
    private method = 'GET';
    private url = '';
    private readonly headers = new Headers();
    private responseHeaders = new Headers();
    private isAborted = false;
    private uploadDone = false;

    get response(): string {
      return this.responseText;
    }

    open(method: string, url: string | URL): void {
      this.method = method;
      // Node (the api tests) has no location; the console always passes absolute URLs there.
      this.url = new URL(
        url,
        typeof location === 'undefined' ? undefined : location.href,
      ).toString();
      this.readyState = 1;
    }

    setRequestHeader(name: string, value: string): void {
      this.headers.append(name, value);
    }

    getResponseHeader(name: string): string | null {
      return this.readyState >= 2 ? this.responseHeaders.get(name) : null;
    }

    getAllResponseHeaders(): string {
      return [...this.responseHeaders].map(([name, value]) => `${name}: ${value}\r\n`).join('');
    }

    send(body?: XMLHttpRequestBodyInit | null): void {
      void this.run(body ?? null);
    }

    abort(): void {
      if (this.readyState === 0 || this.readyState === 4 || this.isAborted) return;
      this.isAborted = true;
      this.readyState = 4;
      this.status = 0;
      this.dispatchEvent(new Event('readystatechange'));
      if (!this.uploadDone) this.fireAll(this.upload, ['abort', 'loadend'], 0, 0);
      this.fireAll(this, ['abort', 'loadend'], 0, 0);
    }

    private async run(body: XMLHttpRequestBodyInit | null): Promise<void> {
      const bytes =
        body === null ? undefined : new Uint8Array(await new Response(body).arrayBuffer());
      const total = bytes?.byteLength ?? 0;
      if (bytes) {
        this.fireAll(this.upload, ['loadstart'], 0, total);
        for (let sent = 0; sent < total;) {
          await macrotask();
          if (this.isAborted) return;
          sent = Math.min(total, sent + UPLOAD_CHUNK_BYTES);
          this.upload.dispatchEvent(progressEvent('progress', sent, total));
        }
        if (this.isAborted) return;
        this.uploadDone = true;
        this.fireAll(this.upload, ['load', 'loadend'], total, total);
      }
      this.uploadDone = true;
      let response: Response;
      try {
        response = await handler(
          new Request(this.url, {
            method: this.method,
            headers: this.headers,
            ...(bytes ? { body: bytes } : {}),
          }),
        );
      } catch {
        if (this.isAborted) return;
        this.readyState = 4;
        this.dispatchEvent(new Event('readystatechange'));
        this.fireAll(this, ['error', 'loadend'], 0, 0);
        return;
      }
      const text = await response.text();
      if (this.isAborted) return;
      this.status = response.status;
      this.statusText = response.statusText;
      this.responseHeaders = response.headers;
      this.responseURL = this.url;
      this.responseText = text;
      this.readyState = 4;
      this.dispatchEvent(new Event('readystatechange'));
      this.fireAll(this, ['load', 'loadend'], text.length, text.length);
    }

    private fireAll(target: EventTarget, types: readonly string[], loaded: number, total: number) {
      for (const type of types) target.dispatchEvent(progressEvent(type, loaded, total));
    }
  }
  return SandboxXmlHttpRequest as unknown as typeof XMLHttpRequest;
}

function closeEvent(code: number, reason = ''): Event {
  const init = { code, reason, wasClean: code === 1000 };
  // Node (the api tests' environment) has no CloseEvent; jsdom and browsers do.
  return typeof CloseEvent === 'function'
    ? new CloseEvent('close', init)
    : Object.assign(new Event('close'), init);
}

/** The console server's batch cap, 256 KiB, counted here in characters (it counts bytes). */
const BATCH_CHARACTERS = 256 * 1024;

type StreamConnector = (path: string, headers: Headers) => ReturnType<Sandbox['connectStream']>;

/**
 * A browser `WebSocket` whose other end is the sandbox's stream in process (`connectStream`),
 * with what a browser shows of it: `open`, one `message` per element or error body, `close` with
 * 1000 when the participant ends the stream; a refused handshake is only `error` and `close`
 * with 1006, since a browser cannot read the refusal. Only what the console uses:
 * `addEventListener`, `send` (the first message starts the stream, as on the real server) and
 * `close`. With `batches`, a page that offers the console server's batch protocol gets it, and
 * the messages the stream has ready at once in one frame, as the console server sends them
 * (ADR 034; the format is `splitStreamBatch`'s).
 */
function sandboxWebSocket(connectStream: StreamConnector, batches: boolean) {
  const open = new Set<SandboxWebSocket>();

  class SandboxWebSocket extends EventTarget {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    readonly url: string;
    readyState = 0;
    protocol = '';
    private readonly controller = new AbortController();
    private stream: ((message: string, signal: AbortSignal) => AsyncIterable<unknown>) | undefined;
    private hasStarted = false;

    constructor(url: string | URL, protocols: string | string[] = []) {
      super();
      this.url = String(url);
      const offered = typeof protocols === 'string' ? [protocols] : protocols;
      const isBatched = batches && offered.includes(STREAM_BATCH_PROTOCOL);
      // As the console server does, the participant never sees the batch offer.
      const forwarded = offered.filter((offer) => !isBatched || offer !== STREAM_BATCH_PROTOCOL);
      const headers = new Headers();
      if (forwarded.length > 0) headers.set('sec-websocket-protocol', forwarded.join(', '));
      const path = new URL(this.url).pathname;
      void (async () => {
        await macrotask();
        try {
          this.stream = await connectStream(path, headers);
        } catch {
          this.finish(1006, true);
          return;
        }
        if (this.readyState !== 0) return;
        this.readyState = 1;
        this.protocol = isBatched ? STREAM_BATCH_PROTOCOL : 'daml.ws.auth';
        open.add(this);
        this.dispatchEvent(new Event('open'));
      })();
    }

    send(data: string) {
      if (this.readyState !== 1) throw new Error('WebSocket is not open');
      const stream = this.stream;
      if (this.hasStarted || !stream) return;
      this.hasStarted = true;
      const isBatched = this.protocol === STREAM_BATCH_PROTOCOL;
      let batch = '';
      let isDeliveryDue = false;
      const deliver = () => {
        isDeliveryDue = false;
        if (this.readyState !== 1 || batch === '') return;
        const frame = batch;
        batch = '';
        this.dispatchEvent(new MessageEvent('message', { data: frame }));
      };
      void (async () => {
        try {
          for await (const message of stream(data, this.controller.signal)) {
            if (this.readyState !== 1) return;
            const text = JSON.stringify(message);
            if (!isBatched) {
              this.dispatchEvent(new MessageEvent('message', { data: text }));
              // A browser delivers each message in a task of its own.
              await macrotask();
              continue;
            }
            // What the stream has ready goes out together once it pauses, or at the server's cap.
            batch += `${String(text.length)}:${text}`;
            if (batch.length >= BATCH_CHARACTERS) {
              deliver();
              await macrotask();
            } else if (!isDeliveryDue) {
              isDeliveryDue = true;
              setTimeout(deliver, 0);
            }
          }
        } catch {
          this.finish(1006, true);
          return;
        }
        deliver();
        this.finish(1000);
      })();
    }

    close(code = 1000) {
      this.finish(code);
    }

    /** Ends the connection from the network's side. */
    drop() {
      this.finish(1006, true);
    }

    private finish(code: number, isError = false) {
      if (this.readyState === 3) return;
      this.readyState = 3;
      open.delete(this);
      this.controller.abort();
      if (isError) this.dispatchEvent(new Event('error'));
      this.dispatchEvent(closeEvent(code));
    }
  }

  return {
    WebSocket: SandboxWebSocket as unknown as typeof WebSocket,
    dropAll: () => {
      for (const socket of [...open]) socket.drop();
    },
    openCount: () => open.size,
  };
}
