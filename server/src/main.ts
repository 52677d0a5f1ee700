import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindingWarning } from '@ledger-console/edge/binding-warning';
import { auditStoreLocation, DEFAULT_AUDIT_RETENTION } from './audit/audit-location';
import { createAuditLog, type AuditLog } from './audit/audit-log';
import { PARTICIPANT_API_PREFIX, PARTICIPANT_PAGE_PREFIX } from '@ledger-console/edge/console-api';
import { closeServer, createServer } from './create-server';
import { ensureBuilt } from './ensure-build';
import {
  exposedApi,
  parseServerArgs,
  participantNames,
  USAGE,
  type ServerArgs,
} from './server-args';
import type { SignInProvider } from './sign-in-providers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The participants the console addresses, as started or named (ADR 022). */
type Fleet = {
  /** The default first; each a name, its JSON API URL, and whether it is an embedded sandbox. */
  participants: { name: string; url: string; embedded: boolean }[];
  description: string;
  /** Extra lines to print after the URLs. */
  notes: string[];
  /** The embedded sandbox's OpenID provider's issuers, offered on the sign-in page (--auth oidc). */
  signInProviders: SignInProvider[];
  close?: () => Promise<void>;
};

async function main(): Promise<void> {
  const parsed = parseServerArgs(process.argv.slice(2), process.env);
  if (parsed.kind === 'help') {
    console.log(USAGE);
    return;
  }
  if (parsed.kind === 'error') {
    console.error(`${parsed.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const args = parsed.args;

  await ensureBuilt(ROOT, (line) => {
    console.log(line);
  });

  // Bind first: with --port 0 the console's origin, which the embedded sandbox's OpenID provider
  // registers as its client's redirect target, is only known once listening. Until the console
  // is ready, requests get a 503 (a readiness probe keeps waiting) rather than hanging.
  const starting = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' });
    res.end('Ledger Console is starting');
  };
  const server = http.createServer(starting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, args.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The bound port, which differs from the requested one for --port 0.
  const { port } = server.address() as AddressInfo;

  let fleet: Fleet;
  try {
    fleet = await connectParticipants(args, consoleOrigins(args, port));
  } catch (error) {
    server.close();
    throw error;
  }

  let audit: AuditLog;
  try {
    audit = await openAuditLog(args);
  } catch (error) {
    server.close();
    await fleet.close?.();
    throw error;
  }

  server.off('request', starting);
  createServer({
    audit,
    server,
    distDir: path.join(ROOT, 'dist'),
    participants: fleet.participants.map(({ name, url, embedded }) => ({
      name,
      ledgerUrl: url,
      // The sandbox's test controls (reset, fault injection) are only meaningful with the sandbox.
      extraProxyPrefixes: embedded ? ['/__sandbox'] : [],
    })),
    host: args.host,
    ...(args.allowedHosts === undefined ? {} : { allowedHosts: args.allowedHosts }),
    ...(args.publicOrigins === undefined ? {} : { publicOrigins: args.publicOrigins }),
    serveSourceMaps: args.sourceMaps ?? false,
    // Theirs first: someone who names a provider means it; the sandbox's come after.
    signInProviders: [...(args.signInProviders ?? []), ...fleet.signInProviders],
    proxy: bodyLimits(args),
  });

  const consoleUrl = `http://${hostForUrl(args.host)}:${String(port)}`;
  console.log(`Ledger Console: ${consoleUrl}`);
  if (fleet.participants.length === 1) {
    console.log(`Participant:    ${fleet.participants[0]?.url ?? ''} (${fleet.description})`);
  } else {
    console.log(`Participants:   ${fleet.description}`);
    for (const [index, { name, url }] of fleet.participants.entries()) {
      const pages = `${consoleUrl}${PARTICIPANT_PAGE_PREFIX}/${name}/`;
      const api = `${PARTICIPANT_API_PREFIX}/${name}`;
      const first = index === 0 ? ', default: also at /' : '';
      console.log(`  ${name}: ${pages} (API ${api}${first}) → ${url}`);
    }
  }
  for (const note of fleet.notes) console.log(note);
  console.log(`Audit log:      ${auditDescription(args, audit)}`);
  const exposed = exposedApi(args);
  for (const line of exposed ? bindingWarning(args.host, exposed) : []) console.warn(line);

  let isStopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (isStopping) {
      // A second Ctrl-C means "now": do not wait for slow connections.
      process.exit(1);
    }
    isStopping = true;
    console.log(`\n${signal}: shutting down…`);
    const closed = closeServer(server).then(() => audit.close());
    void Promise.allSettled([closed, fleet.close?.()]).then((results) => {
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) console.error('Shutdown did not finish cleanly:', failed.reason);
      process.exit(failed ? 1 : 0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The audit log of `--audit-db` / `--data-dir`, its store opened and pruned (or failing, said by /readyz). */
function openAuditLog(args: ServerArgs): Promise<AuditLog> {
  return createAuditLog({
    location: auditStoreLocation(args.auditDb, args.dataDir, process.env),
    retention: {
      days:
        args.auditRetentionDays === undefined
          ? DEFAULT_AUDIT_RETENTION.days
          : args.auditRetentionDays,
      maxEntries:
        args.auditMaxEntries === undefined
          ? DEFAULT_AUDIT_RETENTION.maxEntries
          : args.auditMaxEntries,
    },
    warn: (line) => {
      console.warn(line);
    },
  });
}

/** Where the log is, for the start-up lines: never a URL's secret (it has none) or the token. */
function auditDescription(args: ServerArgs, audit: AuditLog): string {
  const location = auditStoreLocation(args.auditDb, args.dataDir, {});
  const where =
    location.kind === 'file'
      ? location.path
      : location.kind === 'remote'
        ? `libsql server ${new URL(location.url).host}`
        : 'in memory (--data-dir or --audit-db to keep it)';
  const { days, maxEntries } = audit.retention;
  const kept = [
    days === null ? 'no age limit' : `${String(days)} days`,
    maxEntries === null ? 'no count limit' : `at most ${String(maxEntries)} entries`,
  ].join(', ');
  return `${where}; kept ${kept}`;
}

/** Where the console's pages live: loopback by both names, the bound address, public origins. */
function consoleOrigins(args: ServerArgs, port: number): string[] {
  const origins = [`http://127.0.0.1:${String(port)}`, `http://localhost:${String(port)}`];
  const wildcard = ['0.0.0.0', '::', '127.0.0.1', 'localhost'];
  if (!wildcard.includes(args.host))
    origins.push(`http://${hostForUrl(args.host)}:${String(port)}`);
  return [...new Set([...origins, ...(args.publicOrigins ?? [])])];
}

async function connectParticipants(args: ServerArgs, origins: string[]): Promise<Fleet> {
  const [name = ''] = participantNames(args);
  if (args.ledgers) {
    return {
      participants: args.ledgers.map((ledger) => ({ ...ledger, embedded: false })),
      description: 'from --ledger',
      notes: [],
      signInProviders: [],
    };
  }
  if (args.ledger) {
    return {
      participants: [{ name, url: args.ledger, embedded: false }],
      description: 'from --ledger',
      notes: [],
      signInProviders: [],
    };
  }
  if ((args.participants ?? 1) > 1) return startFleet(args);
  // Loaded only when needed: pointing at a real participant must not start (or load) the sandbox.
  const { startSandbox, mintUserToken } = await import('../../sandbox/src/index');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    ...(args.auth === undefined ? {} : { auth: args.auth }),
    ...(args.jwtSecret === undefined ? {} : { jwtSecret: args.jwtSecret }),
    ...(args.dataDir === undefined ? {} : { dataDir: args.dataDir }),
    ...(args.synchronizers === undefined ? {} : { synchronizers: args.synchronizers }),
    ...(args.oidcProvider === undefined
      ? {}
      : { oidc: { ...args.oidcProvider, consoleOrigins: origins } }),
    seed: args.seed ?? 'demo',
    ...(args.trafficCost ? { trafficCost: true } : {}),
    ...bodyLimits(args),
  });
  const details = [`embedded sandbox, auth ${args.auth ?? 'none'}`];
  if (args.dataDir) details.push(`data in ${args.dataDir}`);
  if (args.trafficCost) details.push('traffic cost reported');
  if (sandbox.seeded) details.push('demo data seeded (--seed none for an empty one)');
  const notes: string[] = [];
  if (sandbox.jwtSecret !== undefined) {
    // For scripts and curl; in the browser, the sign-in screen mints a token for any sandbox user.
    const token = await mintUserToken(sandbox.jwtSecret, 'participant_admin');
    if (args.jwtSecret === undefined) notes.push(`HS256 secret (generated): ${sandbox.jwtSecret}`);
    notes.push(
      'Sign in from the console (Sign in → "Sign in as a sandbox user"), or use this',
      `participant_admin token (12 h) with curl: ${token}`,
    );
  }
  const signInProviders: SignInProvider[] = [];
  if (sandbox.oidc !== undefined) {
    const { issuers } = sandbox.oidc;
    for (const [id, name, issuer] of [
      ['sandbox-default', 'Sandbox provider (default IdP)', issuers.default],
      ['sandbox-acme', 'Sandbox provider (acme-idp)', issuers.acme],
      // For delegating a new IdP: nobody signs in here until an IdP configuration names it.
      ['sandbox-globex', 'Sandbox provider (globex)', issuers.globex],
    ] as const) {
      signInProviders.push({
        id,
        name,
        issuer: issuer.issuer,
        clientId: 'ledger-console',
        scopes: ['openid', 'profile', 'email', 'offline_access'],
        extraAuthorizeParams: {},
        identityProviderId: issuer.identityProviderId,
      });
    }
    notes.push(
      'Sign in: open the console and choose "Sandbox provider (default IdP)" — its login page lists',
      "the sandbox's users (new-hire is not onboarded); acme-idp's users sign in with",
      '"Sandbox provider (acme-idp)". Sandbox-only OpenID provider, not a real identity provider:',
      `  ${issuers.default.issuer} (default IdP)`,
      `  ${issuers.acme.issuer} (acme-idp)`,
      `  ${issuers.globex.issuer} (no IdP yet: create one for it, e.g. globex-idp)`,
    );
  }
  return {
    participants: [{ name, url: sandbox.url, embedded: true }],
    description: details.join(', '),
    notes,
    signInProviders,
    close: () => sandbox.close(),
  };
}

/** `--participants N` above 1: the sandbox fleet, each member on a free loopback port. */
async function startFleet(args: ServerArgs): Promise<Fleet> {
  const { startSandboxFleet, mintUserToken } = await import('../../sandbox/src/index');
  const fleet = await startSandboxFleet({
    participants: args.participants ?? 1,
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    ...(args.auth === undefined || args.auth === 'oidc' ? {} : { auth: args.auth }),
    ...(args.jwtSecret === undefined ? {} : { jwtSecret: args.jwtSecret }),
    ...(args.dataDir === undefined ? {} : { dataDir: args.dataDir }),
    ...(args.synchronizers === undefined ? {} : { synchronizers: args.synchronizers }),
    seed: args.seed ?? 'demo',
    ...(args.trafficCost ? { trafficCost: true } : {}),
    ...bodyLimits(args),
  });
  const [first] = fleet.participants;
  const details = [
    `embedded sandbox fleet of ${String(fleet.participants.length)}, auth ${args.auth ?? 'none'}`,
  ];
  if (args.dataDir) details.push(`data in ${args.dataDir}/<name>`);
  if (args.trafficCost) details.push('traffic cost reported');
  if (first?.seeded) details.push(`demo data seeded on ${first.name} (--seed none for none)`);
  const notes: string[] = [];
  if (first?.jwtSecret !== undefined) {
    if (args.jwtSecret === undefined) notes.push(`HS256 secret (generated): ${first.jwtSecret}`);
    notes.push(
      'Sign in from the console (Sign in → "Sign in as a sandbox user"), or use these',
      'participant_admin tokens (12 h, each for its participant only) with curl:',
    );
    const { jwtSecret } = first;
    const tokens = await Promise.all(
      fleet.participants.map(async ({ name, participantId }) => {
        const token = await mintUserToken(jwtSecret, 'participant_admin', '12h', participantId);
        return `  ${name}: ${token}`;
      }),
    );
    notes.push(...tokens);
  }
  return {
    participants: fleet.participants.map((member) => ({
      name: member.name,
      url: member.url,
      embedded: true,
    })),
    description: details.join(', '),
    notes,
    signInProviders: [],
    close: () => fleet.close(),
  };
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The body limits of `--max-request-bytes`/`--max-dar-bytes`, for the proxy and the sandbox. */
function bodyLimits(args: ServerArgs) {
  return {
    ...(args.maxRequestBytes === undefined ? {} : { maxRequestBytes: args.maxRequestBytes }),
    ...(args.maxDarBytes === undefined ? {} : { maxDarBytes: args.maxDarBytes }),
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
