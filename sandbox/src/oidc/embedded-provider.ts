import { generateKeyPair, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHost } from '@ledger-console/edge/request-guard';
import {
  DEFAULT_ACCESS_TOKEN_TTL,
  DEFAULT_REFRESH_TOKEN_TTL,
} from '@ledger-console/edge/sandbox-oidc-flags';
import { SignJWT } from 'jose';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { participantAudience } from '../auth/user-token';
import type { IdpsStore } from '../store/idps-store';
import type { UsersStore } from '../store/users-store';
import { repointEmbeddedIssuer } from './embedded-idp';
import { loadOidcProvider } from './load-oidc-provider';
import { createMemoryStorage } from './memory-adapter';
import {
  pageCsp,
  errorPage,
  loggedOutPage,
  loginPage,
  logoutPage,
  type LoginCandidate,
} from './provider-pages';

/** The console's one client: public, Authorization Code + PKCE, as a browser app must be. */
export const OIDC_CLIENT_ID = 'ledger-console';
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

export { PARTICIPANT_AUDIENCE_PREFIX, participantAudience } from '../auth/user-token';

/**
 * The three issuers, each a path on the one loopback server. `globex` is for delegating a new IdP
 * (issue 15): no configuration names it until a participant admin creates one, so its users are
 * those of whichever IdP configuration has its issuer, read live, and none before that.
 */
export const EMBEDDED_ISSUERS = {
  default: {
    path: '/default',
    /** The IdP whose users sign in here; for `globex`, the id the console's sign-in names. */
    identityProviderId: '',
    /** A subject the provider signs in but the participant has no user for (403 there). */
    notOnboarded: 'new-hire',
    idpByIssuer: false,
  },
  acme: {
    path: '/acme',
    identityProviderId: 'acme-idp',
    notOnboarded: 'acme-new-hire',
    idpByIssuer: false,
  },
  globex: {
    path: '/globex',
    identityProviderId: 'globex-idp',
    notOnboarded: 'globex-new-hire',
    idpByIssuer: true,
  },
} as const;

export type EmbeddedIssuerName = keyof typeof EMBEDDED_ISSUERS;

/**
 * The resource indicator access tokens are issued for. Fixed and port-free; the audience put into
 * the token is decided per issuer in `getResourceServerInfo`, read live from the participant.
 */
const LEDGER_API_RESOURCE = 'urn:ledger-console:sandbox:ledger-api';

export type EmbeddedProviderOptions = {
  /** 0 picks a free port. Always bound on 127.0.0.1. */
  port?: number;
  participantId: string;
  users: UsersStore;
  idps: IdpsStore;
  /** Origins of the console's pages: redirect URIs, logout targets and CORS derive from them. */
  consoleOrigins: readonly string[];
  accessTokenTtl?: number;
  refreshTokenTtl?: number;
};

export type IssuerInfo = {
  name: EmbeddedIssuerName;
  issuer: string;
  jwksUri: string;
  identityProviderId: string;
};

export type EmbeddedProvider = {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  issuers: Record<EmbeddedIssuerName, IssuerInfo>;
  /** The client's redirect URIs, as registered. */
  redirectUris: string[];
  /**
   * An access token exactly like the one the issuer hands the console after a sign-in, made in
   * process: the demo seed calls the API with it, since in oidc mode there is no shared secret.
   */
  issueAccessToken(issuer: EmbeddedIssuerName, sub: string, ttlSeconds?: number): Promise<string>;
  close(): Promise<void>;
};

type SigningKey = { kid: string; privateKey: KeyObject; jwk: Record<string, unknown> };

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = await new Promise<{ privateKey: KeyObject }>((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048 }, (error, _publicKey, key) => {
      if (error) reject(error);
      else resolve({ privateKey: key });
    });
  });
  const kid = randomUUID();
  return {
    kid,
    privateKey,
    jwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
  };
}

/** `${origin}/sign-in/callback` and `/sign-in/popup-callback` for every console origin. */
export function consoleRedirectUris(origins: readonly string[]): string[] {
  return origins.flatMap((origin) => [
    `${origin}/sign-in/callback`,
    `${origin}/sign-in/popup-callback`,
  ]);
}

/**
 * A real OpenID provider (oidc-provider) for the sandbox's `--auth oidc` mode: three issuers on one
 * loopback server, the participant's default IdP, the demo's `acme-idp` and `globex` (for an IdP
 * a participant admin has yet to create), each with its own RSA key, a login page that lists that IdP's users, and RS256 JWT access tokens with the
 * audiences Canton expects. Everything lives in memory: tokens die with the process.
 */
export async function startEmbeddedProvider(
  options: EmbeddedProviderOptions,
): Promise<EmbeddedProvider> {
  const accessTokenTtl = options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL;
  const refreshTokenTtl = options.refreshTokenTtl ?? DEFAULT_REFRESH_TOKEN_TTL;
  const consoleOrigins = new Set(options.consoleOrigins.map((origin) => new URL(origin).origin));
  const redirectUris = consoleRedirectUris([...consoleOrigins]);
  const csp = pageCsp(consoleOrigins);
  const sendPage = (res: ServerResponse, status: number, html: string) => {
    sendHtml(res, status, html, csp);
  };
  const { Provider, errors } = await loadOidcProvider();

  // Listen first: the issuers' URLs carry the port, and the providers are built from them.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = http.createServer((req, res) => {
    if (handler) handler(req, res);
    else sendText(res, 503, 'starting');
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      // Say whose port it is: the console's and the sandbox's own ports are in the same message.
      reject(
        new Error(
          `The sandbox's OpenID provider cannot listen on 127.0.0.1:${String(options.port ?? 0)} (--oidc-port): ${error.message}`,
          { cause: error },
        ),
      );
    };
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;

  try {
    const names = Object.keys(EMBEDDED_ISSUERS) as EmbeddedIssuerName[];
    const keys = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await newSigningKey()] as const)),
    ) as Record<EmbeddedIssuerName, SigningKey>;
    /**
     * The IdP whose users sign in at an issuer, read live; undefined for `globex` while no
     * configuration names its issuer.
     */
    const idpIdOf = (name: EmbeddedIssuerName): string | undefined => {
      const spec = EMBEDDED_ISSUERS[name];
      if (!spec.idpByIssuer) return spec.identityProviderId;
      return options.idps.byIssuer(`${url}${spec.path}`)?.identityProviderId;
    };
    /** What the participant checks: the IdP's configured audience (edited live in the console). */
    const audienceOf = (name: EmbeddedIssuerName) => {
      const identityProviderId = idpIdOf(name) ?? '';
      const configured =
        identityProviderId === '' ? '' : (options.idps.get(identityProviderId)?.audience ?? '');
      return configured === '' ? participantAudience(options.participantId) : configured;
    };
    const cookieKeys = [randomBytes(32).toString('base64url')];
    const storages: ReturnType<typeof createMemoryStorage>[] = [];
    const issuers = {} as Record<EmbeddedIssuerName, IssuerInfo>;
    type Mounted = {
      info: IssuerInfo;
      provider: InstanceType<typeof Provider>;
      callback: ReturnType<InstanceType<typeof Provider>['callback']>;
    };
    const mounted = new Map<string, Mounted>();

    for (const name of names) {
      const spec = EMBEDDED_ISSUERS[name];
      const key = keys[name];
      const issuer = `${url}${spec.path}`;
      const info: IssuerInfo = {
        name,
        issuer,
        jwksUri: `${issuer}/jwks`,
        identityProviderId: spec.identityProviderId,
      };
      issuers[name] = info;

      /** Who may sign in here: the IdP's users, live, and the one subject nobody onboarded. */
      const isSubject = (sub: string) => {
        if (sub === spec.notOnboarded) return true;
        const identityProviderId = idpIdOf(name);
        return (
          identityProviderId !== undefined &&
          options.users.get(sub)?.identityProviderId === identityProviderId
        );
      };

      const storage = createMemoryStorage();
      storages.push(storage);
      const configuration: Configuration = {
        adapter: storage.adapter,
        clients: [
          {
            client_id: OIDC_CLIENT_ID,
            client_name: 'Ledger Console',
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            redirect_uris: redirectUris,
            post_logout_redirect_uris: [...consoleOrigins].map((origin) => `${origin}/sign-in`),
          },
        ],
        jwks: { keys: [key.jwk] },
        cookies: {
          // The issuers share one origin, so their cookies need their own names.
          names: {
            session: `_session_${name}`,
            interaction: `_interaction_${name}`,
            resume: `_interaction_resume_${name}`,
          },
          keys: cookieKeys,
        },
        scopes: [...OIDC_SCOPES],
        claims: {
          openid: ['sub'],
          profile: ['name'],
          email: ['email', 'email_verified'],
        },
        // The console reads name and email from the ID token; userinfo is not for RS tokens.
        conformIdTokenClaims: false,
        pkce: { required: () => true },
        features: {
          devInteractions: { enabled: false },
          revocation: { enabled: true },
          userinfo: { enabled: true },
          rpInitiatedLogout: {
            enabled: true,
            logoutSource: (ctx, form) => {
              ctx.set('Content-Security-Policy', csp);
              ctx.type = 'html';
              ctx.body = logoutPage(issuer, form);
            },
            postLogoutSuccessSource: (ctx) => {
              ctx.set('Content-Security-Policy', csp);
              ctx.type = 'html';
              ctx.body = loggedOutPage(issuer);
            },
          },
          resourceIndicators: {
            enabled: true,
            defaultResource: () => LEDGER_API_RESOURCE,
            // Refresh requests carry no resource parameter; the granted one is meant.
            useGrantedResource: () => true,
            getResourceServerInfo: (_ctx, resource) => {
              if (resource !== LEDGER_API_RESOURCE) throw new errors.InvalidTarget();
              return {
                scope: '',
                audience: audienceOf(name),
                accessTokenTTL: accessTokenTtl,
                accessTokenFormat: 'jwt',
                jwt: { sign: { alg: 'RS256' } },
              };
            },
          },
        },
        interactions: {
          url: (_ctx, interaction) => `${spec.path}/interaction/${interaction.uid}`,
        },
        // A first-party client: consent is implied, so the journey is console → login → back.
        loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
          const accountId = ctx.oidc.session?.accountId;
          const client = ctx.oidc.client;
          if (!accountId || !client) return undefined;
          const grantId =
            ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(client.clientId);
          if (grantId) {
            const existing = await ctx.oidc.provider.Grant.find(grantId);
            if (existing) return existing;
          }
          const grant = new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
          grant.addOIDCScope(OIDC_SCOPES.join(' '));
          grant.addResourceScope(LEDGER_API_RESOURCE, '');
          await grant.save();
          return grant;
        },
        // Always, not only with offline_access: the console refreshes silently either way.
        issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
        rotateRefreshToken: true,
        findAccount: (_ctx, sub) => {
          if (!isSubject(sub)) return undefined;
          return {
            accountId: sub,
            claims: () => ({
              sub,
              name: options.users.get(sub)?.annotations['display-name'] ?? sub,
              // Obviously fake: .invalid can never be delivered to (RFC 2606).
              email: `${sub}@${name}.sandbox.invalid`,
              email_verified: false,
            }),
          };
        },
        clientBasedCORS: (_ctx, origin, client) =>
          client.clientId === OIDC_CLIENT_ID && consoleOrigins.has(origin),
        renderError: (ctx, out) => {
          ctx.set('Content-Security-Policy', csp);
          ctx.type = 'html';
          ctx.body = errorPage(
            Object.fromEntries(Object.entries(out).map(([k, v]) => [k, String(v)])),
          );
        },
        ttl: {
          AccessToken: accessTokenTtl,
          AuthorizationCode: 60,
          IdToken: accessTokenTtl,
          Interaction: 600,
          Grant: refreshTokenTtl,
          RefreshToken: refreshTokenTtl,
          Session: refreshTokenTtl,
        },
      };
      const provider = new Provider(issuer, configuration);
      mounted.set(spec.path, { info, provider, callback: provider.callback() });
    }

    // A --data-dir from an earlier run keeps a globex configuration pointing at that run's port.
    repointEmbeddedIssuer(options.idps, issuers.globex);

    const candidatesFor = (name: EmbeddedIssuerName): LoginCandidate[] => {
      const spec = EMBEDDED_ISSUERS[name];
      const identityProviderId = idpIdOf(name);
      const users: LoginCandidate[] = [];
      let after = '';
      while (identityProviderId !== undefined) {
        const page = options.users.page(identityProviderId, after, 500);
        for (const user of page) {
          users.push({ userId: user.id, isDeactivated: user.isDeactivated, notOnboarded: false });
        }
        const last = page.at(-1);
        if (page.length < 500 || !last) break;
        after = last.id;
      }
      // Once someone onboards it, it is listed with the IdP's users, and only there.
      if (!users.some((user) => user.userId === spec.notOnboarded)) {
        users.push({ userId: spec.notOnboarded, isDeactivated: false, notOnboarded: true });
      }
      return users;
    };

    handler = (req, res) => {
      void handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendText(res, 500, 'Internal error of the sandbox OpenID provider');
        else res.destroy();
        console.error('Sandbox OpenID provider:', error);
      });
    };

    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      // Loopback only, also by name: a rebound DNS name must not reach the login page (ADR 010).
      if (checkHost(req.headers.host, { bindHost: '127.0.0.1' })) {
        sendText(res, 403, 'Host not allowed');
        return;
      }
      const target = req.url ?? '/';
      const pathname = target.split('?')[0] ?? '/';
      const prefix = [...mounted.keys()].find(
        (path) => pathname === path || pathname.startsWith(`${path}/`),
      );
      const entry = prefix === undefined ? undefined : mounted.get(prefix);
      if (prefix === undefined || !entry) {
        sendText(res, 404, 'Not found: the issuers are /default, /acme and /globex');
        return;
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !consoleOrigins.has(origin)) withoutCorsHeaders(res);

      const rest = target.slice(prefix.length) || '/';
      const interaction = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(
        rest.split('?')[0] ?? '',
      );
      if (interaction) {
        await handleInteraction(entry, req, res, interaction[1] ?? '', interaction[2]);
        return;
      }
      // oidc-provider finds its mount path by comparing the two URLs.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = target;
      req.url = rest;
      void entry.callback(req, res);
    };

    const handleInteraction = async (
      { info, provider }: Mounted,
      req: IncomingMessage,
      res: ServerResponse,
      uid: string,
      action: string | undefined,
    ) => {
      let details;
      try {
        details = await provider.interactionDetails(req, res);
      } catch {
        sendPage(res, 400, errorPage({ error: 'The sign-in request expired; start again.' }));
        return;
      }
      if (details.uid !== uid) {
        sendPage(res, 400, errorPage({ error: 'This sign-in page belongs to another request.' }));
        return;
      }
      if (action === undefined) {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          sendText(res, 405, 'Method Not Allowed');
          return;
        }
        const base = `${EMBEDDED_ISSUERS[info.name].path}/interaction/${uid}`;
        sendPage(
          res,
          200,
          loginPage({
            issuer: info.issuer,
            identityProviderId: idpIdOf(info.name),
            clientId: typeof details.params.client_id === 'string' ? details.params.client_id : '',
            candidates: candidatesFor(info.name),
            loginAction: `${base}/login`,
            abortAction: `${base}/abort`,
          }),
        );
        return;
      }
      if (req.method !== 'POST') {
        sendText(res, 405, 'Method Not Allowed');
        return;
      }
      // Completing a sign-in is a state change: only the login page itself may post it (CSRF).
      const refusal = crossSiteRefusal(req);
      if (refusal) {
        sendPage(res, 403, errorPage({ error: refusal }));
        return;
      }
      if (action === 'abort') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user cancelled the sign-in' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const form = await readForm(req);
      const sub = form?.get('sub') ?? '';
      if (!candidatesFor(info.name).some((candidate) => candidate.userId === sub)) {
        sendPage(res, 400, errorPage({ error: `No user ${sub} to sign in as at ${info.issuer}` }));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub } },
        { mergeWithLastSubmission: false },
      );
    };

    return {
      url,
      issuers,
      redirectUris,
      async issueAccessToken(name, sub, ttlSeconds = accessTokenTtl) {
        const key = keys[name];
        return new SignJWT({ client_id: OIDC_CLIENT_ID, scope: '' })
          .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid })
          .setIssuer(issuers[name].issuer)
          .setSubject(sub)
          .setAudience(audienceOf(name))
          .setJti(randomUUID())
          .setIssuedAt()
          .setExpirationTime(`${String(ttlSeconds)}s`)
          .sign(key.privateKey);
      },
      close: async () => {
        for (const storage of storages) storage.close();
        await closeServer(server);
      },
    };
  } catch (error) {
    await closeServer(server);
    throw error;
  }
}

/** Why a POST is not the login page's own, or undefined when it is. */
function crossSiteRefusal(req: IncomingMessage): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') {
    return `This sign-in was posted by another site's page (Sec-Fetch-Site: ${site}).`;
  }
  const origin = req.headers.origin;
  const own = `http://${req.headers.host ?? ''}`;
  if (origin === undefined) {
    // Browsers send Origin with every form POST; Sec-Fetch-Site alone still proves the page.
    return site === 'same-origin' ? undefined : 'This sign-in came without an Origin header.';
  }
  return origin === own ? undefined : `This sign-in was posted by a page at ${origin}.`;
}

/** Drops CORS headers from an answer to a page that is not the console's. */
function withoutCorsHeaders(res: ServerResponse) {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    name.toLowerCase().startsWith('access-control-') ? res : setHeader(name, value);
}

const MAX_FORM_BYTES = 4096;

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string, csp: string) {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
    server.closeAllConnections();
  });
}
