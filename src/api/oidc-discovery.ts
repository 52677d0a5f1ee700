import {
  OIDC_DISCOVERY_PATH,
  type DiscoveredKey,
  type DiscoveryCheck,
} from '@ledger-console/edge/console-api';
import { mutationOptions } from '@tanstack/react-query';
import { env } from '@/env';
import { networkError, toApiError } from '@/lib/errors/api-error';
import { readAccessToken } from './access-token';
import { isRecord } from '@/lib/values/is-record';
import { isWebUrl } from '@/lib/text/is-web-url';

/**
 * An issuer's discovery as the console server reads it (`GET /__console/oidc-discovery`,
 * server/src/oidc-discovery.ts): browsers meet CORS at most providers, so the server fetches the
 * issuer's discovery document and the JWKS it names, for a participant admin only. Its answer
 * (OidcDiscoveryResult) is checked here and flattened: `keys` are the JWKS's.
 */
export type IssuerDiscovery = {
  issuer: string;
  jwksUrl: string;
  keys: DiscoveredKey[];
  checks: DiscoveryCheck[];
};

export type { DiscoveredKey, DiscoveryCheck };

const MAX_KEYS = 100;
const MAX_CHECKS = 20;

/**
 * Asks the console server to read `issuer`'s discovery document. The answer is still checked
 * here: whatever sits between must not put surprises into the form.
 */
export async function discoverIssuer(issuer: string): Promise<IssuerDiscovery> {
  const token = readAccessToken();
  let response: Response;
  try {
    response = await globalThis.fetch(
      `${env.API_BASE_URL}${OIDC_DISCOVERY_PATH}?${new URLSearchParams({ issuer }).toString()}`,
      {
        headers: {
          Accept: 'application/json',
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        },
      },
    );
  } catch (error) {
    throw networkError(error);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 404 && !isRecord(body)) {
    throw toApiError(
      404,
      'Filling from an issuer needs the console server (npm start); this page is served without it. Enter the issuer and JWKS URL by hand.',
    );
  }
  if (!response.ok) throw toApiError(response.status, body);
  const discovery = toDiscovery(body);
  if (discovery?.issuer !== issuer) {
    throw toApiError(502, 'The console server sent an unreadable discovery answer');
  }
  return discovery;
}

function toDiscovery(value: unknown): IssuerDiscovery | undefined {
  if (!isRecord(value) || !isRecord(value.jwks) || !Array.isArray(value.jwks.keys)) {
    return undefined;
  }
  const { issuer, jwksUrl, checks } = value;
  if (!isText(issuer, 2048) || !isText(jwksUrl, 2048) || !Array.isArray(checks)) return undefined;
  if (!isWebUrl(jwksUrl)) return undefined;
  const keys = value.jwks.keys.slice(0, MAX_KEYS).filter(isRecord).map(toKey);
  const list = checks.slice(0, MAX_CHECKS).map(toCheck);
  if (!list.every((check) => check !== undefined)) return undefined;
  return { issuer, jwksUrl, keys, checks: list };
}

function toKey(key: Record<string, unknown>): DiscoveredKey {
  const result: DiscoveredKey = {};
  for (const field of ['kid', 'kty', 'alg', 'use'] as const) {
    const value = key[field];
    if (isText(value, 255)) result[field] = value;
  }
  return result;
}

function toCheck(value: unknown): DiscoveryCheck | undefined {
  if (!isRecord(value)) return undefined;
  const { name, status, detail } = value;
  if (!isText(name, 100) || !isText(detail, 4096)) return undefined;
  if (status !== 'ok' && status !== 'warning') return undefined;
  return { name, status, detail };
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

export const oidcDiscoveryMutations = {
  discover: () => mutationOptions({ mutationFn: discoverIssuer }),
};
