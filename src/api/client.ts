import createClient, { defaultPathSerializer, type Client, type Middleware } from 'openapi-fetch';
import { env } from '@/env';
import { ApiError, networkError, toApiError } from '@/lib/errors/api-error';
import { readAccessToken } from './access-token';
import type { paths } from './schema';
import { answerWithoutAsking, learnFromTokenlessAnswer } from './tokenless-access';

/** Puts the token `readToken` finds (if any) on every request. */
function bearerToken(readToken: () => string | undefined): Middleware {
  return {
    onRequest({ request }) {
      const token = readToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
    // fetch() itself threw (offline, DNS, server gone): still an ApiError, with status 0.
    onError({ error }) {
      return networkError(error);
    },
  };
}

/**
 * Without a token, asks nothing whose answer is known to be "sign in first" (tokenless-access.ts).
 * Runs after the bearer token middleware, so it sees whether a token went on the request.
 */
const tokenlessAccessGate: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.headers.has('Authorization')) return undefined;
    return answerWithoutAsking(schemaPath);
  },
  onResponse({ request, response }) {
    if (!request.headers.has('Authorization')) learnFromTokenlessAnswer(response.status);
    return undefined;
  },
};

/**
 * Path parameters as the default serializer writes them, refusing `.` and `..`: the URL parser
 * removes such a segment however it is encoded (`%2E%2E` included), so `/v2/users/..` would reach
 * `/v2/` and `/v2/users/./rights` `/v2/users/rights`. Nothing is sent for them; the participant's
 * path-addressed endpoints cannot reach such an id over HTTP from a browser.
 */
function pathSerializerFor(baseUrl: string) {
  return (pathname: string, pathParams: Record<string, unknown>): string =>
    pathSerializer(baseUrl, pathname, pathParams);
}

function pathSerializer(
  baseUrl: string,
  pathname: string,
  pathParams: Record<string, unknown>,
): string {
  for (const [name, value] of Object.entries(pathParams)) {
    if (value === '.' || value === '..') {
      // The serializer gets the template with the base URL in front; name the endpoint only.
      const endpoint = pathname.startsWith(baseUrl) ? pathname.slice(baseUrl.length) : pathname;
      throw new ApiError(400, {
        code: 'UNADDRESSABLE_PATH_PARAMETER',
        cause: `The ${name} "${value}" cannot be put in a URL path: browsers remove "." and ".." path segments however they are encoded, so the JSON Ledger API's ${endpoint} cannot be called for it from here. The console sent nothing; use the gRPC Ledger API for it.`,
        errorCategory: 8,
      });
    }
  }
  return defaultPathSerializer(pathname, pathParams);
}

export type ApiClient = Client<paths>;

/** A typed JSON Ledger API client for `baseUrl`, sending the token `readToken` finds. */
export function createApiClient(baseUrl: string, readToken: () => string | undefined): ApiClient {
  const client = createClient<paths>({
    baseUrl,
    pathSerializer: pathSerializerFor(baseUrl),
    // Look fetch up per call: tests stub globalThis.fetch after this module has loaded.
    fetch: (request) => globalThis.fetch(request),
  });
  client.use(bearerToken(readToken));
  return client;
}

/**
 * The typed JSON Ledger API client of the page's participant. Only `src/api/*` modules use it,
 * through {@link unwrap}.
 */
export const api = createApiClient(env.API_BASE_URL, readAccessToken);
api.use(tokenlessAccessGate);

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** Returns the body of a 2xx response; anything else becomes an ApiError. */
export function unwrap<T>({ data, error, response }: Outcome<T>): T {
  // openapi-fetch reports an empty error body as `error: undefined`, so trust `ok`.
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}
