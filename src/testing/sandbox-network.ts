import { vi } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/src/index';

export { createSandbox };
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
};

/**
 * Points `globalThis.fetch` at an in-process sandbox for the current test (vitest's
 * `unstubGlobals` restores it), so the real API client runs end to end without a port.
 */
export function routeFetchToSandbox({
  sandbox = createSandbox(),
  intercept = (request, sandboxFetch) => sandboxFetch(request),
}: SandboxNetworkOptions = {}) {
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
  return {
    sandbox,
    sandboxFetch,
    /** Replaces the intercept for all requests from now on. */
    intercept: (next: NetworkIntercept) => {
      handler = (request) => next(request, sandboxFetch);
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
