import createClient, { defaultPathSerializer, type Middleware } from 'openapi-fetch';
import { env } from '@/env';
import { ApiError, networkError, toApiError } from '@/lib/errors/api-error';
import { readAccessToken } from './access-token';
import type { paths } from './schema';
import { answerWithoutAsking, learnFromTokenlessAnswer } from './tokenless-access';

const bearerToken: Middleware = {
  onRequest({ request }) {
    const token = readAccessToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  // fetch() itself threw (offline, DNS, server gone): still an ApiError, with status 0.
  onError({ error }) {
    return networkError(error);
  },
};

/**
 * Without a token, asks nothing whose answer is known to be "sign in first" (tokenless-access.ts).
 * Runs after {@link bearerToken}, so it sees whether a token went on the request.
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
function pathSerializer(pathname: string, pathParams: Record<string, unknown>): string {
  for (const [name, value] of Object.entries(pathParams)) {
    if (value === '.' || value === '..') {
      // The serializer gets the template with the base URL in front; name the endpoint only.
      const endpoint = pathname.startsWith(env.API_BASE_URL)
        ? pathname.slice(env.API_BASE_URL.length)
        : pathname;
      throw new ApiError(400, {
        code: 'UNADDRESSABLE_PATH_PARAMETER',
        cause: `The ${name} "${value}" cannot be put in a URL path: browsers remove "." and ".." path segments however they are encoded, so the JSON Ledger API's ${endpoint} cannot be called for it from here. The console sent nothing; use the gRPC Ledger API for it.`,
        errorCategory: 8,
      });
    }
  }
  return defaultPathSerializer(pathname, pathParams);
}

/** The typed JSON Ledger API client. Only `src/api/*` modules use it, through {@link unwrap}. */
export const api = createClient<paths>({
  baseUrl: env.API_BASE_URL,
  pathSerializer,
  // Look fetch up per call: tests stub globalThis.fetch after this module has loaded.
  fetch: (request) => globalThis.fetch(request),
});
api.use(bearerToken, tokenlessAccessGate);

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** Returns the body of a 2xx response; anything else becomes an ApiError. */
export function unwrap<T>({ data, error, response }: Outcome<T>): T {
  // openapi-fetch reports an empty error body as `error: undefined`, so trust `ok`.
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}
