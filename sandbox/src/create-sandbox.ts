import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { createAuthenticator, type AuthMode, type JwksAuthService } from './auth/authenticate';
import { createTokenMinter } from './auth/token-minter';
import { DecodeFailure, SandboxError, toErrorBody, unauthenticated } from './errors/sandbox-error';
import { bodyLimitFor, drainBriefly, type BodyLimits } from '@ledger-console/edge/body-limits';
import { bodyLimit, isRequestTooLarge } from './http/body-limit';
import { openSharedDarReader } from './http/dar-reader';
import { methodsFor } from './http/known-endpoints';
import type { SandboxContext, SandboxEnv } from './http/sandbox-env';
import { streamMessages } from './http/websocket-server';
import { createLedgerState, type LedgerStateOptions } from './ledger-state';
import { randomHex } from './ledger/transaction';
import { healthRoutes, versionRoutes } from './routes/health-routes';
import { identityProviderRoutes } from './routes/identity-provider-routes';
import { interactiveSubmissionRoutes } from './routes/interactive-submission-routes';
import { commandRoutes } from './routes/command-routes';
import { contractRoutes } from './routes/contract-routes';
import { controlRoutes } from './routes/control-routes';
import { eventRoutes } from './routes/event-routes';
import { darRoutes, packageRoutes, packageVettingRoutes } from './routes/package-routes';
import { externalPartyRoutes } from './routes/external-party-routes';
import { partyRoutes } from './routes/party-routes';
import { preferredPackageRoutes } from './routes/preferred-package-routes';
import { reassignmentRoutes } from './routes/reassignment-routes';
import { stateRoutes } from './routes/state-routes';
import { streamChannels } from './routes/stream-channels';
import { updateRoutes } from './routes/update-routes';
import { userRoutes } from './routes/user-routes';

export type SandboxOptions = LedgerStateOptions &
  BodyLimits & {
    auth?: AuthMode;
    /** Shared secret for HS256 tokens in `jwt` mode. */
    jwtSecret?: string;
    /**
     * Configured auth services (Canton's `auth-services`), tried before the IdP-aware one; given
     * the participant id, since a target audience usually names it, and asked on every token, so
     * a service can be added once its JWKS has a URL. `oidc` mode points one at the embedded
     * provider's default issuer.
     */
    authServices?: (participant: { participantId: string }) => readonly JwksAuthService[];
    /**
     * Tokens the sandbox mints for default-IdP users name this participant in their audience
     * (audience-based), so that a fleet's other participants, which share the secret, refuse
     * them as Canton does. Off for a lone sandbox, whose minted tokens stay scope-based.
     */
    mintForThisParticipantOnly?: boolean;
  };

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The sandbox participant as a web-standard `fetch` handler, so tests can call it in process
 * and `start-sandbox.ts` can put it behind a port.
 */
export function createSandbox(options: SandboxOptions = {}) {
  const state = createLedgerState(options);
  const auth = options.auth ?? 'none';
  const secretOption = options.jwtSecret === undefined ? {} : { jwtSecret: options.jwtSecret };
  const minter = createTokenMinter({
    ...(auth === 'jwt' ? secretOption : {}),
    users: state.users,
    idps: state.idps,
    ...(options.mintForThisParticipantOnly ? { audienceParticipantId: state.participantId } : {}),
    ...(auth === 'oidc'
      ? { noSecretReason: 'The sandbox signs users in through its OpenID provider (--auth oidc)' }
      : {}),
  });
  const authenticate = createAuthenticator({
    mode: auth,
    // oidc mode verifies through JWKS only, as Canton does: a shared secret would bypass it.
    ...(auth === 'oidc' ? {} : secretOption),
    participantId: state.participantId,
    users: state.users,
    idps: state.idps,
    mintedTokenKey: minter.verificationKey,
    ...(options.authServices === undefined
      ? {}
      : {
          services: () => options.authServices?.({ participantId: state.participantId }) ?? [],
        }),
  });

  const app = new Hono<SandboxEnv>();

  app.use(async (c, next) => {
    // The trace id of a `traceparent` header is honoured and shows up in errors (§1.5, §10).
    const match = TRACEPARENT.exec(c.req.header('traceparent') ?? '');
    c.set('traceId', match?.[1] ?? randomHex(16));
    c.set('loggingContext', {});
    await next();
  });

  // Every JSON endpoint runs the token through claim resolution first (§0.2); health does not.
  app.use('/v2/*', async (c, next) => {
    c.set('caller', await authenticate(c.req.raw.headers));
    await next();
  });

  // After authentication: the JSON layer resolves claims before it reads a body (§0.2), while a
  // missing token only fails later, at the gRPC side, so an oversized body still gets its 413.
  const limits: BodyLimits = {
    ...(options.maxRequestBytes === undefined ? {} : { maxRequestBytes: options.maxRequestBytes }),
    ...(options.maxDarBytes === undefined ? {} : { maxDarBytes: options.maxDarBytes }),
  };
  app.use(async (c, next) => {
    c.set('maxBodyBytes', bodyLimitFor(c.req.method, c.req.path, limits));
    await next();
  });
  app.use(bodyLimit(limits));

  app.route('/', healthRoutes());
  app.route('/v2/version', versionRoutes());
  app.route('/v2/users', userRoutes(state));
  app.route('/v2/authenticated-user', userRoutes(state, { authenticatedUserOnly: true }));
  app.route('/v2/idps', identityProviderRoutes(state));
  app.route('/v2/parties/external', externalPartyRoutes(state));
  app.route('/v2/parties', partyRoutes(state));
  // DARs are inflated and decoded in a worker thread, so a hostile archive cannot stall /livez.
  const darReader = openSharedDarReader();
  const readDarBytes = (bytes: Uint8Array) => darReader.read(bytes);
  app.route('/v2/dars', darRoutes(state, readDarBytes));
  app.route('/v2/packages', packageRoutes(state, readDarBytes));
  app.route('/v2/package-vetting', packageVettingRoutes(state));
  app.route('/v2/commands', commandRoutes(state));
  app.route('/v2/commands', reassignmentRoutes(state));
  app.route('/v2/interactive-submission', interactiveSubmissionRoutes(state));
  app.route('/v2/updates', updateRoutes(state));
  app.route('/v2/state', stateRoutes(state));
  app.route('/v2/events', eventRoutes(state));
  app.route('/v2/contracts', contractRoutes(state));
  app.route('/v2/interactive-submission', preferredPackageRoutes(state));
  app.route('/__sandbox', controlRoutes({ auth, minter, users: state.users, idps: state.idps }));

  // One renderer for every error body, thrown or not (a notFound handler's throw skips onError).
  const errorResponse = (c: SandboxContext, error: Error) => {
    if (isRequestTooLarge(error)) {
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      if (incoming) drainBriefly(incoming);
    }
    if (error instanceof DecodeFailure) {
      return c.text(error.message, 400);
    }
    const sandboxError =
      error instanceof SandboxError
        ? error
        : new SandboxError('LEDGER_API_INTERNAL_ERROR', error.message, { origin: 'json' });
    const body = toErrorBody(sandboxError, {
      traceId: c.get('traceId'),
      participant: state.participantName,
      loggingContext: c.get('loggingContext'),
      ...(c.get('correlationId') === undefined ? {} : { correlationId: c.get('correlationId') }),
    });
    return c.json(body, sandboxError.httpStatus as 400);
  };
  app.onError((error, c) => errorResponse(c, error));

  app.notFound((c) => {
    const methods = methodsFor(c.req.path);
    if (methods.length > 0 && !methods.includes(c.req.method)) {
      // tapir's reject handler for a known path with another method (§1.9).
      return c.text('Method Not Allowed', 405);
    }
    if (methods.length > 0) {
      // A real endpoint that this sandbox does not emulate: say so instead of pretending.
      return errorResponse(
        c,
        new SandboxError(
          'SANDBOX_UNSUPPORTED_ENDPOINT',
          `The Ledger Console sandbox does not implement ${c.req.method} ${c.req.path}; use a real participant (--ledger) for it.`,
          { origin: 'sandbox' },
        ),
      );
    }
    // Unmatched paths fall through to the legacy route with its own body shape (§1.10).
    return c.json(
      {
        errors: [`HttpMethod(${c.req.method}), uri: ${c.req.url}`],
        status: 404,
        ledgerApiError: null,
      },
      404,
    );
  });

  const channels = streamChannels(state);

  return {
    app,
    state,
    /**
     * A websocket stream without the socket, for in-process clients (the console's component
     * tests). The handshake's headers are authenticated as the websocket server does; a refusal
     * throws the SandboxError whose body the handshake would have answered with. The function it
     * resolves to gives the messages the socket would carry for a request message.
     */
    connectStream: async (
      path: string,
      headers: Headers,
    ): Promise<(message: string, signal: AbortSignal) => AsyncIterable<unknown>> => {
      const channel = channels.get(path);
      if (!channel) throw new Error(`No websocket endpoint at ${path}`);
      const caller = await authenticate(headers);
      if (caller === undefined) throw unauthenticated();
      const traceId = TRACEPARENT.exec(headers.get('traceparent') ?? '')?.[1] ?? randomHex(16);
      return (message, signal) =>
        streamMessages(channel, message, {
          caller,
          traceId,
          participantName: state.participantName,
          signal,
        });
    },
    /** Claim resolution as every JSON endpoint does it, for the websocket streams. */
    authenticate,
    /** `env` carries the Node request, whose body a GET may have (active-contracts-page). */
    fetch: (request: Request, env?: unknown) => app.fetch(request, env),
    close: () => {
      void darReader.close();
      state.close();
    },
  };
}

export type Sandbox = ReturnType<typeof createSandbox>;
