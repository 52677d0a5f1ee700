import { Hono } from 'hono';
import type { AuthMode } from '../auth/authenticate';
import type { TokenMinter } from '../auth/token-minter';
import type { ErrorCode } from '../errors/error-codes';
import { SandboxError } from '../errors/sandbox-error';
import type { SandboxEnv } from '../http/sandbox-env';
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
          throw controlError('INVALID_ARGUMENT', 'The body must be JSON: {"userId": "…"}');
        }
        if (typeof userId !== 'string' || userId === '') {
          throw controlError('INVALID_ARGUMENT', 'userId must be a non-empty string');
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
            throw controlError('USER_NOT_FOUND', `User ${userId} does not exist`);
          case 'unavailable':
            // A conflict with the sandbox's configuration, whatever the category's usual 400.
            throw controlError('SANDBOX_CANNOT_MINT_TOKEN', result.reason, 409);
        }
      })
  );
}

// In the API's error shape, so the console shows these like any other error.
function controlError(code: ErrorCode, reason: string, httpStatus?: number) {
  return new SandboxError(code, reason, {
    origin: 'sandbox',
    ...(httpStatus === undefined ? {} : { httpStatus }),
  });
}
