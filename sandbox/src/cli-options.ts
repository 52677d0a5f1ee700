import { parseArgs } from 'node:util';
import type { ExposedApi } from '@ledger-console/edge/binding-warning';
import { parseByteCount } from '@ledger-console/edge/body-limits';
import { parseHostList, parseOriginList } from '@ledger-console/edge/request-guard';
import {
  ACCESS_TOKEN_TTL_RANGE,
  DEFAULT_REDIRECT_ORIGINS,
  REFRESH_TOKEN_TTL_RANGE,
  parseOidcFlags,
} from '@ledger-console/edge/sandbox-oidc-flags';
import { checkFleetSize, MAX_FLEET_PARTICIPANTS } from './fleet/create-sandbox-fleet';
import { FLEET_OIDC_REFUSAL } from './fleet/start-sandbox-fleet';
import type { StartSandboxOptions } from './start-sandbox';
import { connectedSynchronizers } from './synchronizers';

export const SANDBOX_USAGE = `Usage: npm run sandbox -- [options]
  --port N            port to listen on (default 7575; 0 = any free port)
  --participants N    run N participants, participant1…participantN (1–${String(MAX_FLEET_PARTICIPANTS)}), on the
                      same synchronizer(s), on ports --port, --port + 1, …; each has its own
                      users, parties, packages and offsets and sees its projection of every
                      transaction (not with --auth oidc)
  --host HOST         address to bind (default 127.0.0.1)
  --auth none|jwt|oidc  none: every request is allowed, like a participant without auth
                      services (default); jwt: tokens are required and rights enforced;
                      oidc: the same, with tokens from an embedded OpenID provider on
                      127.0.0.1 (issuers /default and /acme), verified through its JWKS
  --jwt-secret S      HS256 secret for user tokens in jwt mode (generated when absent)
  --oidc-port N       oidc: the provider's port (default 0 = a free one)
  --oidc-access-token-ttl S   oidc: access token lifetime in seconds (default 600,
                      ${String(ACCESS_TOKEN_TTL_RANGE.min)}–${String(ACCESS_TOKEN_TTL_RANGE.max)})
  --oidc-refresh-token-ttl S  oidc: refresh token lifetime in seconds (default 28800,
                      ${String(REFRESH_TOKEN_TTL_RANGE.min)}–${String(REFRESH_TOKEN_TTL_RANGE.max)})
  --oidc-redirect-origin O,…  oidc: origins of the console pages that sign in (repeatable;
                      default ${DEFAULT_REDIRECT_ORIGINS.join(', ')})
  --data-dir DIR      keep all state in DIR/sandbox.db instead of memory (with
                      --participants: each participant in DIR/<name>/sandbox.db)
  --seed demo|none    demo: fill an empty ledger with demo parties, users, an extra IdP and
                      some history (default; with --participants, participant1's); none:
                      start empty
  --synchronizers A,B connect to these synchronizers, by alias (default local); commands run
                      where their parties and contracts are, and contracts can be reassigned
  --allowed-hosts H,… host names the sandbox is reached by besides localhost and IP addresses
                      (requests naming another Host are refused, against DNS rebinding)
  --public-origin O,… origins of pages that may write to it through a TLS-terminating proxy,
                      e.g. https://ledger.example.com (their hosts are allowed too)
  --max-request-bytes N  largest request body accepted (default 8388608, pekko-http's 8 MiB)
  --max-dar-bytes N   largest DAR upload accepted (default 67108864, the 64 MiB gRPC limit)
  --traffic-cost      report traffic cost, as on a synchronizer with traffic control:
                      paidTrafficCost on completions and transactions, costEstimation on
                      prepare (an inferred model, docs/sandbox-fidelity.md); off by default
  --help              show this text`;

/** Parses the sandbox's command line; throws an Error with a readable message on bad input. */
export function parseSandboxArgs(
  args: string[],
): StartSandboxOptions & { help: boolean; participants?: number } {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      participants: { type: 'string' },
      host: { type: 'string' },
      auth: { type: 'string' },
      'jwt-secret': { type: 'string' },
      'oidc-port': { type: 'string' },
      'oidc-access-token-ttl': { type: 'string' },
      'oidc-refresh-token-ttl': { type: 'string' },
      'oidc-redirect-origin': { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      seed: { type: 'string' },
      synchronizers: { type: 'string' },
      'allowed-hosts': { type: 'string' },
      'public-origin': { type: 'string' },
      'max-request-bytes': { type: 'string' },
      'max-dar-bytes': { type: 'string' },
      'traffic-cost': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = values.port === undefined ? 7575 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a number from 0 to 65535, got "${values.port ?? ''}"`);
  }
  const auth = values.auth ?? 'none';
  if (auth !== 'none' && auth !== 'jwt' && auth !== 'oidc')
    throw new Error(`--auth must be "none", "jwt" or "oidc", got "${auth}"`);
  let participants: number | undefined;
  if (values.participants !== undefined) {
    participants = /^[0-9]+$/.test(values.participants) ? Number(values.participants) : NaN;
    try {
      checkFleetSize(participants);
    } catch {
      throw new Error(
        `--participants must be a number from 1 to ${String(MAX_FLEET_PARTICIPANTS)}, got "${values.participants}"`,
      );
    }
    if (auth === 'oidc') throw new Error(FLEET_OIDC_REFUSAL);
    if (port !== 0 && port + participants - 1 > 65535) {
      throw new Error(
        `--port ${String(port)} leaves no room for ${String(participants)} participants (ports up to 65535)`,
      );
    }
  }
  if (values['jwt-secret'] !== undefined && auth === 'oidc') {
    throw new Error(
      '--jwt-secret does not apply to --auth oidc: its tokens are verified through the provider’s JWKS only',
    );
  }
  const oidc = parseOidcFlags({
    auth,
    port: values['oidc-port'],
    accessTokenTtl: values['oidc-access-token-ttl'],
    refreshTokenTtl: values['oidc-refresh-token-ttl'],
    redirectOrigins: values['oidc-redirect-origin'],
  });
  // `demo` by default, like `npm start`: whichever way a newcomer starts the sandbox, they meet
  // the same populated participant. Scripts and benchmarks that need a blank ledger say `none`.
  const seed = values.seed ?? 'demo';
  if (seed !== 'demo' && seed !== 'none')
    throw new Error(`--seed must be "demo" or "none", got "${seed}"`);
  let synchronizers: string[] | undefined;
  if (values.synchronizers !== undefined) {
    synchronizers = values.synchronizers.split(',').map((alias) => alias.trim());
    try {
      connectedSynchronizers(synchronizers);
    } catch (error) {
      throw new Error(`--synchronizers: ${(error as Error).message}`);
    }
  }
  const allowedHosts =
    values['allowed-hosts'] === undefined
      ? undefined
      : parseHostList(values['allowed-hosts'], '--allowed-hosts');
  const publicOrigins =
    values['public-origin'] === undefined
      ? undefined
      : parseOriginList(values['public-origin'], '--public-origin');
  return {
    help: values.help,
    port,
    ...(participants === undefined ? {} : { participants }),
    host: values.host ?? '127.0.0.1',
    auth,
    seed,
    ...(values['jwt-secret'] === undefined ? {} : { jwtSecret: values['jwt-secret'] }),
    ...(oidc === undefined ? {} : { oidc }),
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    ...(synchronizers === undefined ? {} : { synchronizers }),
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    ...(publicOrigins === undefined ? {} : { publicOrigins }),
    ...(values['max-request-bytes'] === undefined
      ? {}
      : { maxRequestBytes: parseByteCount(values['max-request-bytes'], '--max-request-bytes') }),
    ...(values['max-dar-bytes'] === undefined
      ? {}
      : { maxDarBytes: parseByteCount(values['max-dar-bytes'], '--max-dar-bytes') }),
    ...(values['traffic-cost'] ? { trafficCost: true } : {}),
  };
}

/**
 * What the sandbox hands out on its port: bindingWarning prints it beyond loopback. Nothing in
 * oidc mode: every request needs a token, and the provider that signs them is loopback-only.
 */
export function exposedApi(options: Pick<StartSandboxOptions, 'auth'>): ExposedApi | undefined {
  if (options.auth === 'oidc') return undefined;
  return options.auth === 'jwt' ? { kind: 'token-minting' } : { kind: 'no-auth' };
}
