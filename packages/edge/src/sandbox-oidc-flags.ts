import { parseOriginList } from './request-guard';

/** Where `npm start` (4173) and Vite's dev server (5173) serve the console by default. */
export const DEFAULT_REDIRECT_ORIGINS = [
  'http://127.0.0.1:4173',
  'http://localhost:4173',
  'http://127.0.0.1:5173',
] as const;

/** Token lifetimes of the embedded provider, in seconds, unless `--oidc-*-ttl` say otherwise. */
export const DEFAULT_ACCESS_TOKEN_TTL = 600;
export const DEFAULT_REFRESH_TOKEN_TTL = 28_800;

/** Bounds of the `--oidc-*-ttl` flags, in seconds. */
export const ACCESS_TOKEN_TTL_RANGE = { min: 5, max: 86_400 } as const;
export const REFRESH_TOKEN_TTL_RANGE = { min: 60, max: 2_592_000 } as const;

export type OidcFlagValues = {
  auth: string;
  port?: string | undefined;
  accessTokenTtl?: string | undefined;
  refreshTokenTtl?: string | undefined;
  /** `--oidc-redirect-origin`, each occurrence a comma-separated list. */
  redirectOrigins?: readonly string[] | undefined;
};

export type OidcFlags = {
  port: number;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  consoleOrigins: string[];
};

/**
 * The sandbox's `--oidc-*` flags, checked; undefined when `--auth` is not oidc. Throws an Error
 * with the message to print, like the other flags.
 */
export function parseOidcFlags(values: OidcFlagValues): OidcFlags | undefined {
  const given = (
    [
      ['--oidc-port', values.port],
      ['--oidc-access-token-ttl', values.accessTokenTtl],
      ['--oidc-refresh-token-ttl', values.refreshTokenTtl],
      ['--oidc-redirect-origin', values.redirectOrigins],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (values.auth !== 'oidc') {
    const [first] = given;
    if (first) throw new Error(`${first[0]} needs --auth oidc`);
    return undefined;
  }
  const port = integerFlag('--oidc-port', values.port, 0, { min: 0, max: 65_535 });
  const accessTokenTtl = integerFlag(
    '--oidc-access-token-ttl',
    values.accessTokenTtl,
    DEFAULT_ACCESS_TOKEN_TTL,
    ACCESS_TOKEN_TTL_RANGE,
  );
  const refreshTokenTtl = integerFlag(
    '--oidc-refresh-token-ttl',
    values.refreshTokenTtl,
    DEFAULT_REFRESH_TOKEN_TTL,
    REFRESH_TOKEN_TTL_RANGE,
  );
  if (refreshTokenTtl < accessTokenTtl) {
    throw new Error(
      `--oidc-refresh-token-ttl (${String(refreshTokenTtl)}) must not be shorter than --oidc-access-token-ttl (${String(accessTokenTtl)})`,
    );
  }
  const consoleOrigins =
    values.redirectOrigins === undefined
      ? [...DEFAULT_REDIRECT_ORIGINS]
      : [
          ...new Set(
            values.redirectOrigins.flatMap((value) =>
              parseOriginList(value, '--oidc-redirect-origin').map((o) => new URL(o).origin),
            ),
          ),
        ];
  return { port, accessTokenTtl, refreshTokenTtl, consoleOrigins };
}

/** A whole number of `flag` within `range`, or `fallback` when absent. */
export function integerFlag(
  flag: string,
  value: string | undefined,
  fallback: number,
  range: { min: number; max: number },
): number {
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < range.min || number > range.max) {
    throw new Error(
      `${flag} must be a whole number from ${String(range.min)} to ${String(range.max)}, got "${value}"`,
    );
  }
  return number;
}
