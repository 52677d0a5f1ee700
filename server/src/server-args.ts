import { parseArgs } from 'node:util';
import type { ExposedApi } from '@ledger-console/edge/binding-warning';
import { parseByteCount } from '@ledger-console/edge/body-limits';
import { PARTICIPANT_NAME_PATTERN } from '@ledger-console/edge/console-api';
import { parseHostList, parseOriginList } from '@ledger-console/edge/request-guard';
import {
  AUDIT_DB_TOKEN_ENV,
  auditStoreLocation,
  DEFAULT_AUDIT_RETENTION,
} from './audit/audit-location';
import {
  ACCESS_TOKEN_TTL_RANGE,
  DEFAULT_ACCESS_TOKEN_TTL,
  DEFAULT_REFRESH_TOKEN_TTL,
  parseOidcFlags,
  REFRESH_TOKEN_TTL_RANGE,
} from '@ledger-console/edge/sandbox-oidc-flags';
import {
  OIDC_FLAGS,
  providerFromFlags,
  readSignInConfigFile,
  type OidcFlagValues,
  unknownSignInParticipants,
  type SignInProvider,
} from './sign-in-providers';

export type ServerArgs = {
  port: number;
  host: string;
  /** A participant's JSON API base URL (a bare `--ledger URL`); without it a sandbox starts. */
  ledger?: string;
  /** Named participants (`--ledger NAME=URL`, repeated), in the order given: the first is the default. */
  ledgers?: NamedLedger[];
  /** `--participants N`: an embedded sandbox fleet of N participants (1 = the single sandbox). */
  participants?: number;
  auth?: 'none' | 'jwt' | 'oidc';
  jwtSecret?: string;
  /** Embedded sandbox with `--auth oidc`: its OpenID provider's port and token lifetimes. */
  oidcProvider?: { port: number; accessTokenTtl: number; refreshTokenTtl: number };
  /** The console's own state (the audit log's audit.db) and the embedded sandbox's. */
  dataDir?: string;
  /** `--audit-db`: where the audit log is kept (audit-location.ts); default under dataDir. */
  auditDb?: string;
  /** `--audit-retention-days` / `--audit-max-entries`, when given; null = unlimited. */
  auditRetentionDays?: number | null;
  auditMaxEntries?: number | null;
  /** Embedded sandbox only: the aliases of the synchronizers it is connected to. */
  synchronizers?: string[];
  /** Embedded sandbox only: `demo` (the default) seeds an empty ledger with demo data. */
  seed?: 'demo' | 'none';
  /** Embedded sandbox only: report traffic cost (`--traffic-cost`). */
  trafficCost?: true;
  /** Public host names the console answers to besides loopback ones (ADR 010). */
  allowedHosts?: string[];
  /** Origins of the console's public pages behind a TLS-terminating proxy. */
  publicOrigins?: string[];
  /** Serve the build's source maps. */
  sourceMaps?: true;
  /** Largest request body the console forwards (and the embedded sandbox accepts). */
  maxRequestBytes?: number;
  /** Largest DAR upload the console forwards (and the embedded sandbox accepts). */
  maxDarBytes?: number;
  /** OpenID Connect providers for the sign-in page, from `--oidc-*` or `--sign-in-config`. */
  signInProviders?: SignInProvider[];
};

export type NamedLedger = { name: string; url: string };

export type ParsedServerArgs =
  { kind: 'run'; args: ServerArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export const DEFAULT_PORT = 4173;
/** The most participants `--participants` starts: each is a whole sandbox in this process. */
export const MAX_FLEET_PARTICIPANTS = 8;
/** The most `--ledger NAME=URL` a console addresses; each gets its own proxy and connection pool. */
export const MAX_NAMED_LEDGERS = 32;

// Loopback only unless asked: the console proxies admin rights to a participant.
export const DEFAULT_HOST = '127.0.0.1';

export const USAGE = `Usage: npm start -- [options]

  --port N            port to listen on (default ${String(DEFAULT_PORT)})
  --host H            interface to bind (default ${DEFAULT_HOST})
  --ledger URL        a participant's JSON Ledger API base URL, e.g. http://localhost:7575;
                      without it an embedded sandbox participant is started
  --ledger NAME=URL   one participant of several, repeated: each at /participants/NAME/…
                      (pages at /p/NAME/…), the first also at the unprefixed paths; NAME is
                      lower case letters, digits, _ and - (at most 63), e.g. participant1
  --participants N    embedded sandbox fleet: N participants (1–${String(MAX_FLEET_PARTICIPANTS)}) named participant1…
                      on shared synchronizers, each at /participants/NAME/… (pages /p/NAME/…),
                      demo data on participant1; --auth none or jwt above 1; not with --ledger
  --auth none|jwt|oidc  embedded sandbox: authentication mode (default none); oidc starts a
                      sandbox-only OpenID provider on 127.0.0.1 (issuers /default and /acme)
                      whose login page lists the sandbox's users, and the sign-in page offers
                      it (with --oidc-issuer or --sign-in-config, after those providers)
  --jwt-secret S      embedded sandbox: HS256 secret for --auth jwt (default: generated)
  --oidc-port N       embedded sandbox, --auth oidc: the provider's port (default 0 = free)
  --oidc-access-token-ttl S   --auth oidc: access token lifetime in seconds (default
                      ${String(DEFAULT_ACCESS_TOKEN_TTL)}, ${String(ACCESS_TOKEN_TTL_RANGE.min)}–${String(ACCESS_TOKEN_TTL_RANGE.max)})
  --oidc-refresh-token-ttl S  --auth oidc: refresh token lifetime in seconds (default
                      ${String(DEFAULT_REFRESH_TOKEN_TTL)}, ${String(REFRESH_TOKEN_TTL_RANGE.min)}–${String(REFRESH_TOKEN_TTL_RANGE.max)})
  --data-dir DIR      keep state in DIR: the console's audit log (audit.db) and the embedded
                      sandbox's ledger (default: both in memory)
  --audit-db DB       the shared audit log: a SQLite file path or file: URL, or the libsql://
                      or https:// URL of a libsql server several consoles share (its token in
                      ${AUDIT_DB_TOKEN_ENV}); default DIR/audit.db with --data-dir,
                      else in memory
  --audit-retention-days N  drop audit entries older than N days (default ${String(DEFAULT_AUDIT_RETENTION.days)}),
                      or unlimited
  --audit-max-entries N     keep at most N audit entries, newest first (default ${String(DEFAULT_AUDIT_RETENTION.maxEntries)}),
                      or unlimited
  --synchronizers A,B embedded sandbox: connect to these synchronizers (aliases; default local)
  --seed demo|none    embedded sandbox: demo parties, users and history on an empty ledger
                      (default demo), or none to start empty
  --traffic-cost      embedded sandbox: report traffic cost on completions, transactions
                      and prepare (an inferred model; off like a participant without
                      traffic control)
  --allowed-hosts H,… host names the console is reached by besides localhost and IP addresses,
                      e.g. console.example.com (requests naming another Host are refused)
  --public-origin O,… origins of the console's pages behind a TLS-terminating proxy, e.g.
                      https://console.example.com (their hosts are allowed too)
  --source-maps       serve the build's source maps (*.map), off by default
  --max-request-bytes N  largest request body forwarded to the participant (and accepted by
                      the embedded sandbox); default 8388608 (pekko-http's 8 MiB)
  --max-dar-bytes N   the same for DAR uploads; default 67108864 (the 64 MiB gRPC limit)
  --sign-in-config FILE  OpenID Connect sign-in providers, several, from a JSON file
                      (docs/sign-in.md), each for all participants or those it names;
                      not with the --oidc-* options
  --oidc-issuer URL   one OpenID Connect provider: its issuer (https; http only on loopback)
  --oidc-client-id ID   its public client id (Authorization Code + PKCE, no secret)
  --oidc-scope S      its scopes, space- or comma-separated (default "openid daml_ledger_api",
                      or "openid" with --oidc-audience or --oidc-resource)
  --oidc-audience A   the audience parameter for an audience-based token
  --oidc-resource URI the resource parameter (RFC 8707) instead of an audience
  --oidc-name NAME    the name the sign-in page shows (default: the issuer's host)
  --oidc-idp ID       the Canton identity provider its users belong to (default: the default IdP)
  -h, --help          show this help

Environment: LEDGER_CONSOLE_ALLOWED_HOSTS and LEDGER_CONSOLE_PUBLIC_ORIGIN are read when the
options are absent; ${AUDIT_DB_TOKEN_ENV} is the libsql server's auth token.`;

const SANDBOX_ONLY = [
  'auth',
  'jwt-secret',
  'synchronizers',
  'seed',
  'traffic-cost',
  'oidc-port',
  'oidc-access-token-ttl',
  'oidc-refresh-token-ttl',
] as const;

/** Ids of the embedded provider's three issuers on the sign-in page (main.ts builds them). */
export const SANDBOX_SIGN_IN_PROVIDER_IDS = [
  'sandbox-default',
  'sandbox-acme',
  'sandbox-globex',
] as const;

/** Parses `npm start` arguments; never throws and never exits, so it is easy to test. */
export function parseServerArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ParsedServerArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        ledger: { type: 'string', multiple: true },
        participants: { type: 'string' },
        auth: { type: 'string' },
        'jwt-secret': { type: 'string' },
        'oidc-port': { type: 'string' },
        'oidc-access-token-ttl': { type: 'string' },
        'oidc-refresh-token-ttl': { type: 'string' },
        'data-dir': { type: 'string' },
        'audit-db': { type: 'string' },
        'audit-retention-days': { type: 'string' },
        'audit-max-entries': { type: 'string' },
        synchronizers: { type: 'string' },
        seed: { type: 'string' },
        'traffic-cost': { type: 'boolean' },
        'allowed-hosts': { type: 'string' },
        'max-request-bytes': { type: 'string' },
        'max-dar-bytes': { type: 'string' },
        'public-origin': { type: 'string' },
        'source-maps': { type: 'boolean' },
        'sign-in-config': { type: 'string' },
        'oidc-issuer': { type: 'string' },
        'oidc-client-id': { type: 'string' },
        'oidc-scope': { type: 'string' },
        'oidc-audience': { type: 'string' },
        'oidc-resource': { type: 'string' },
        'oidc-name': { type: 'string' },
        'oidc-idp': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };

  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return {
      kind: 'error',
      message: `--port must be an integer from 0 to 65535, got ${String(values.port)}`,
    };
  }
  const host = values.host ?? DEFAULT_HOST;
  if (!host) return { kind: 'error', message: '--host must not be empty' };

  const ledgerValues = values.ledger ?? [];
  let ledger: string | undefined;
  let ledgers: NamedLedger[] | undefined;
  if (ledgerValues.length > 0) {
    if (values.participants !== undefined) {
      return {
        kind: 'error',
        message:
          '--participants starts an embedded sandbox fleet and --ledger addresses running participants: give one or the other',
      };
    }
    const given = SANDBOX_ONLY.filter((name) => values[name] !== undefined);
    if (given.length > 0) {
      const list = given.map((name) => `--${name}`).join(', ');
      const verb = given.length === 1 ? 'applies' : 'apply';
      return {
        kind: 'error',
        message: `${list} ${verb} only to the embedded sandbox, not to --ledger`,
      };
    }
    const parsedLedgers = parseLedgers(ledgerValues);
    if (typeof parsedLedgers === 'string') return { kind: 'error', message: parsedLedgers };
    if (Array.isArray(parsedLedgers)) ledgers = parsedLedgers;
    else ledger = parsedLedgers.url;
  }
  let participants: number | undefined;
  if (values.participants !== undefined) {
    participants = /^\d{1,2}$/.test(values.participants) ? Number(values.participants) : NaN;
    if (!(participants >= 1 && participants <= MAX_FLEET_PARTICIPANTS)) {
      return {
        kind: 'error',
        message: `--participants must be a whole number from 1 to ${String(MAX_FLEET_PARTICIPANTS)}, got ${values.participants}`,
      };
    }
    if (participants > 1 && values.auth === 'oidc') {
      return {
        kind: 'error',
        message:
          '--auth oidc serves one participant: with --participants above 1 use --auth none or --auth jwt (or --participants 1 for --auth oidc)',
      };
    }
  }

  const { auth } = values;
  if (auth !== undefined && auth !== 'none' && auth !== 'jwt' && auth !== 'oidc') {
    return { kind: 'error', message: `--auth must be none, jwt or oidc, got ${auth}` };
  }
  if (values['jwt-secret'] !== undefined && auth !== 'jwt') {
    return { kind: 'error', message: '--jwt-secret needs --auth jwt' };
  }
  let oidcProvider: ServerArgs['oidcProvider'];
  try {
    // The sandbox's own checks; the redirect origins are the console's, known once it listens.
    const flags = parseOidcFlags({
      auth: auth ?? 'none',
      port: values['oidc-port'],
      accessTokenTtl: values['oidc-access-token-ttl'],
      refreshTokenTtl: values['oidc-refresh-token-ttl'],
    });
    if (flags) {
      const { port: oidcPort, accessTokenTtl, refreshTokenTtl } = flags;
      oidcProvider = { port: oidcPort, accessTokenTtl, refreshTokenTtl };
    }
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const { seed } = values;
  if (seed !== undefined && seed !== 'demo' && seed !== 'none') {
    return { kind: 'error', message: `--seed must be demo or none, got ${seed}` };
  }

  const synchronizers = values.synchronizers?.split(',').map((alias) => alias.trim());
  if (synchronizers?.some((alias) => alias === '')) {
    return { kind: 'error', message: '--synchronizers must be a comma-separated list of aliases' };
  }

  let allowedHosts: string[] | undefined;
  let publicOrigins: string[] | undefined;
  try {
    const hosts = values['allowed-hosts'] ?? env.LEDGER_CONSOLE_ALLOWED_HOSTS;
    if (hosts !== undefined) allowedHosts = parseHostList(hosts, '--allowed-hosts');
    const origins = values['public-origin'] ?? env.LEDGER_CONSOLE_PUBLIC_ORIGIN;
    if (origins !== undefined) publicOrigins = parseOriginList(origins, '--public-origin');
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }

  let maxRequestBytes: number | undefined;
  let maxDarBytes: number | undefined;
  try {
    if (values['max-request-bytes'] !== undefined) {
      maxRequestBytes = parseByteCount(values['max-request-bytes'], '--max-request-bytes');
    }
    if (values['max-dar-bytes'] !== undefined) {
      maxDarBytes = parseByteCount(values['max-dar-bytes'], '--max-dar-bytes');
    }
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }

  let auditRetentionDays: number | null | undefined;
  let auditMaxEntries: number | null | undefined;
  try {
    // Checked now, so a typo stops the start; the location is resolved again in main.ts.
    auditStoreLocation(values['audit-db'], values['data-dir'], env);
    auditRetentionDays = limitOrUnlimited(values['audit-retention-days'], '--audit-retention-days');
    auditMaxEntries = limitOrUnlimited(values['audit-max-entries'], '--audit-max-entries');
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }

  const oidcFlags: OidcFlagValues = {};
  for (const [field, flag] of Object.entries(OIDC_FLAGS)) {
    const value = values[flag.slice(2) as keyof typeof values];
    if (typeof value === 'string') oidcFlags[field as keyof OidcFlagValues] = value;
  }
  const fromFlags = providerFromFlags(oidcFlags);
  const configFile = values['sign-in-config'];
  // Two sources merged would leave it unclear which one a provider came from or overrides.
  if (fromFlags !== undefined && configFile !== undefined) {
    return {
      kind: 'error',
      message:
        '--sign-in-config and the --oidc-* options exclude each other: list every provider in the file',
    };
  }
  const signIn = configFile === undefined ? fromFlags : readSignInConfigFile(configFile);
  if (signIn?.ok === false) return { kind: 'error', message: signIn.message };
  if (signIn?.ok && oidcProvider !== undefined) {
    const taken = signIn.providers.find((provider) =>
      (SANDBOX_SIGN_IN_PROVIDER_IDS as readonly string[]).includes(provider.id),
    );
    if (taken) {
      return {
        kind: 'error',
        message: `sign-in provider id ${taken.id} is the embedded provider's with --auth oidc; choose another`,
      };
    }
  }

  if (signIn?.ok) {
    const unknown = unknownSignInParticipants(
      signIn.providers,
      participantNames({ ledgers, participants }),
    );
    if (unknown !== undefined) return { kind: 'error', message: unknown };
  }

  const args: ServerArgs = { port, host };
  if (signIn?.ok) args.signInProviders = signIn.providers;
  if (maxRequestBytes !== undefined) args.maxRequestBytes = maxRequestBytes;
  if (maxDarBytes !== undefined) args.maxDarBytes = maxDarBytes;
  if (allowedHosts !== undefined) args.allowedHosts = allowedHosts;
  if (publicOrigins !== undefined) args.publicOrigins = publicOrigins;
  if (values['source-maps']) args.sourceMaps = true;
  if (ledger !== undefined) args.ledger = ledger;
  if (ledgers !== undefined) args.ledgers = ledgers;
  if (participants !== undefined) args.participants = participants;
  if (auth !== undefined) args.auth = auth;
  if (values['jwt-secret'] !== undefined) args.jwtSecret = values['jwt-secret'];
  if (oidcProvider !== undefined) args.oidcProvider = oidcProvider;
  if (values['data-dir'] !== undefined) args.dataDir = values['data-dir'];
  if (values['audit-db'] !== undefined) args.auditDb = values['audit-db'];
  if (auditRetentionDays !== undefined) args.auditRetentionDays = auditRetentionDays;
  if (auditMaxEntries !== undefined) args.auditMaxEntries = auditMaxEntries;
  if (synchronizers !== undefined) args.synchronizers = synchronizers;
  if (values['traffic-cost']) args.trafficCost = true;
  // A newcomer's first `npm start` should meet a living participant, not an empty one.
  if (ledgerValues.length === 0) args.seed = seed ?? 'demo';
  return { kind: 'run', args };
}

/**
 * What the console hands out on its port: bindingWarning prints it beyond loopback. Nothing with
 * `--auth oidc`: every call needs a token, and the provider signing them is loopback-only.
 */
export function exposedApi(args: ServerArgs): ExposedApi | undefined {
  if (args.ledger !== undefined) return { kind: 'proxied-ledger', url: args.ledger };
  if (args.ledgers !== undefined) {
    return { kind: 'proxied-ledger', url: args.ledgers.map((named) => named.url).join(', ') };
  }
  if (args.auth === 'oidc') return undefined;
  return args.auth === 'jwt' ? { kind: 'token-minting' } : { kind: 'no-auth' };
}

/** The single participant of a bare `--ledger URL`, and the single embedded sandbox. */
export const SINGLE_LEDGER_NAME = 'participant';
export const SINGLE_SANDBOX_NAME = 'sandbox';

/** The console's names of its participants, the default first (ADR 022). */
export function participantNames(
  args: Pick<ServerArgs, 'ledger' | 'ledgers' | 'participants'>,
): string[] {
  if (args.ledgers !== undefined) return args.ledgers.map((ledger) => ledger.name);
  if (args.ledger !== undefined) return [SINGLE_LEDGER_NAME];
  const count = args.participants ?? 1;
  if (count === 1) return [SINGLE_SANDBOX_NAME];
  return Array.from({ length: count }, (_unused, index) => `participant${String(index + 1)}`);
}

/** A positive whole number, or `unlimited` (null); undefined when the flag is absent. */
function limitOrUnlimited(value: string | undefined, flag: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'unlimited') return null;
  const count = /^\d{1,12}$/.test(value) ? Number(value) : NaN;
  if (!(count >= 1))
    throw new Error(`${flag} must be a positive whole number or unlimited, got "${value}"`);
  return count;
}

/**
 * The `--ledger` values: one bare URL, or participants named `NAME=URL`; a message when they mix,
 * repeat a name or a URL, or a name or URL is malformed.
 */
function parseLedgers(values: readonly string[]): { url: string } | NamedLedger[] | string {
  // A name has neither ':' nor '/', so `http://host/a=b` is a bare URL, never a name.
  const named = values.map((value) => /^([^=:/]*)=(.*)$/s.exec(value));
  const bare = values.filter((_value, index) => named[index] === null);
  if (bare.length > 0 && bare.length < values.length) {
    return `--ledger: name every participant (--ledger NAME=URL) or give a single bare --ledger URL, not both; ${bare[0] ?? ''} has no name`;
  }
  if (bare.length > 1) {
    return '--ledger URL can be given once; for several participants name each: --ledger participant1=URL --ledger participant2=URL';
  }
  if (bare[0] !== undefined) {
    const problem = ledgerUrlProblem(bare[0]);
    return problem ?? { url: withoutTrailingSlash(bare[0]) };
  }
  if (values.length > MAX_NAMED_LEDGERS) {
    return `--ledger: at most ${String(MAX_NAMED_LEDGERS)} participants, got ${String(values.length)}`;
  }
  const ledgers: NamedLedger[] = [];
  for (const match of named) {
    const name = match?.[1] ?? '';
    const url = match?.[2] ?? '';
    if (!PARTICIPANT_NAME_PATTERN.test(name)) {
      return `--ledger ${name}=…: a participant name is 1 to 63 lower case letters, digits, _ and -, starting with a letter or digit, e.g. participant1`;
    }
    if (ledgers.some((other) => other.name === name)) {
      return `--ledger ${name}=…: the name ${name} is given twice`;
    }
    const problem = ledgerUrlProblem(url);
    if (problem) return `--ledger ${name}=…: ${problem.replace(/^--ledger /, '')}`;
    const normalised = withoutTrailingSlash(url);
    const twin = ledgers.find((other) => other.url === normalised);
    if (twin) return `--ledger ${name}=…: ${normalised} is already participant ${twin.name}`;
    ledgers.push({ name, url: normalised });
  }
  return ledgers;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function ledgerUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `--ledger must be an absolute URL like http://localhost:7575, got ${value}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `--ledger must be an http or https URL, got ${value}`;
  }
  if (url.username || url.password) return '--ledger must not contain credentials';
  if (url.search || url.hash) return '--ledger must not have a query or fragment';
  return undefined;
}
