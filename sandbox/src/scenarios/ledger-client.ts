/**
 * What every scenario step sends its requests through: the sandbox in process (`sandbox.fetch`),
 * `fetch` over HTTP, or a test runner's own request context. Steps are written once against it.
 */
export type Transport = (request: Request) => Promise<Response> | Response;

/** A request the participant refused or failed: its answer, so a test fails with the reason. */
export class LedgerRequestError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} answered ${String(status)}: ${body}`);
    this.name = 'LedgerRequestError';
  }
}

export type LedgerClientOptions = {
  transport: Transport;
  /**
   * The API's origin, since a Request needs an absolute URL. The in-process sandbox ignores it;
   * a transport that resolves paths itself (Playwright's request context) reads only the path.
   */
  baseUrl?: string;
  /** Sent as a bearer token with every request that names none of its own. */
  token?: string;
};

export type LedgerRequestOptions = {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as they are, as `application/octet-stream` (a DAR). */
  bytes?: Uint8Array<ArrayBuffer>;
  /** Overrides the client's token for this request. */
  token?: string;
};

export type LedgerClient = {
  /** The answer's JSON (undefined for an empty body); throws {@link LedgerRequestError} unless 2xx. */
  request: <T>(method: string, path: string, options?: LedgerRequestOptions) => Promise<T>;
  /** A GET that answers undefined for a 404, e.g. to see whether an earlier run created it. */
  find: <T>(path: string, options?: Pick<LedgerRequestOptions, 'token'>) => Promise<T | undefined>;
};

const IN_PROCESS_ORIGIN = 'http://sandbox.local';

export function createLedgerClient({
  transport,
  baseUrl = IN_PROCESS_ORIGIN,
  token: defaultToken,
}: LedgerClientOptions): LedgerClient {
  const send = async (
    method: string,
    path: string,
    { body, bytes, token = defaultToken }: LedgerRequestOptions,
    notFound: boolean,
  ) => {
    const headers = new Headers();
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    if (bytes !== undefined) headers.set('Content-Type', 'application/octet-stream');
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const payload = bytes ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await transport(
      new Request(new URL(path, baseUrl), {
        method,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
      }),
    );
    const text = await response.text();
    if (notFound && response.status === 404) return undefined;
    if (!response.ok) throw new LedgerRequestError(method, path, response.status, text);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return {
    request: async <T>(method: string, path: string, options: LedgerRequestOptions = {}) =>
      (await send(method, path, options, false)) as T,
    find: async <T>(path: string, options: Pick<LedgerRequestOptions, 'token'> = {}) =>
      (await send('GET', path, options, true)) as T | undefined,
  };
}
