import createClient, { type Middleware } from 'openapi-fetch';
import { env } from '@/env';
import { networkError, toApiError } from '@/lib/api-error';
import { readAccessToken } from './access-token';
import type { paths } from './schema';

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

/** The typed JSON Ledger API client. Only `src/api/*` modules use it, through {@link unwrap}. */
export const api = createClient<paths>({
  baseUrl: env.API_BASE_URL,
  // Look fetch up per call: tests stub globalThis.fetch after this module has loaded.
  fetch: (request) => globalThis.fetch(request),
});
api.use(bearerToken);

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** Returns the body of a 2xx response; anything else becomes an ApiError. */
export function unwrap<T>({ data, error, response }: Outcome<T>): T {
  // openapi-fetch reports an empty error body as `error: undefined`, so trust `ok`.
  if (!response.ok) throw toApiError(response.status, error);
  return data as T;
}
