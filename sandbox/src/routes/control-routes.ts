import { Hono } from 'hono';
import type { AuthMode } from '../auth/authenticate';
import type { TokenMinter } from '../auth/token-minter';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { IdpsStore } from '../store/idps-store';
import type { UsersStore } from '../store/users-store';

export type ControlRoutesOptions = {
  auth: AuthMode;
  minter: TokenMinter;
  users: UsersStore;
  idps: IdpsStore;
};

/** Enough to pick whom to sign in as; the sandbox's demo data has a dozen. */
const MAX_LISTED_USERS_PER_IDP = 200;

/**
 * `/__sandbox/*`: what only the sandbox offers, never a real participant. The console asks
 * `info` to learn whether it talks to the sandbox at all (a real participant answers 404 here).
 */
export function controlRoutes({ auth, minter, users, idps }: ControlRoutesOptions) {
  return (
    new Hono<SandboxEnv>()
      .get('/info', (c) => c.json({ sandbox: true, auth, canMintTokens: auth === 'jwt' }))
      // Who can be signed in as, across every IdP: without a token the Ledger API lists nobody.
      .get('/users', (c) => {
        const identityProviderIds = ['', ...idps.list().map((idp) => idp.identityProviderId)];
        return c.json({
          users: identityProviderIds.flatMap((identityProviderId) =>
            users.page(identityProviderId, '', MAX_LISTED_USERS_PER_IDP).map((user) => ({
              id: user.id,
              identityProviderId: user.identityProviderId,
              isDeactivated: user.isDeactivated,
              rightKinds: [...new Set(users.rights(user.id).map((right) => right.kind))],
            })),
          ),
        });
      })
      .post('/tokens', async (c) => {
        let userId: unknown;
        try {
          ({ userId } = await c.req.json<{ userId?: unknown }>());
        } catch {
          return controlError(c, 400, 'INVALID_ARGUMENT', 'The body must be JSON: {"userId": "…"}');
        }
        if (typeof userId !== 'string' || userId === '') {
          return controlError(c, 400, 'INVALID_ARGUMENT', 'userId must be a non-empty string');
        }
        const result = await minter.mint(userId);
        switch (result.kind) {
          case 'token':
            return c.json({
              token: result.token,
              userId: result.userId,
              identityProviderId: result.identityProviderId,
            });
          case 'unknown-user':
            return controlError(c, 404, 'USER_NOT_FOUND', `User ${userId} does not exist`);
          case 'unavailable':
            return controlError(c, 409, 'SANDBOX_CANNOT_MINT_TOKEN', result.reason);
        }
      })
  );
}

// Category ids as in the real API's error bodies, so the console shows these like any other error.
const CATEGORY_BY_STATUS: Record<number, { id: number; grpc: number }> = {
  400: { id: 8, grpc: 3 },
  404: { id: 11, grpc: 5 },
  409: { id: 9, grpc: 9 },
};

function controlError(c: SandboxContext, status: 400 | 404 | 409, code: string, cause: string) {
  const category = CATEGORY_BY_STATUS[status] ?? { id: 8, grpc: 3 };
  return c.json(
    {
      code,
      cause,
      correlationId: c.get('traceId'),
      traceId: c.get('traceId'),
      context: {},
      resources: [],
      errorCategory: category.id,
      grpcCodeValue: category.grpc,
      retryInfo: null,
      definiteAnswer: null,
    },
    status,
  );
}
