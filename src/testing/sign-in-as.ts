import { writeAccessToken } from '@/api/access-token';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/** A token the sandbox (jwt mode) mints for one of its users, of any IdP. */
export async function mintToken(sandbox: Sandbox, userId: string): Promise<string> {
  return sandboxSteps(sandbox).mintToken(userId);
}

/** Signs the app under test in as `userId`, as the sign-in screen would; call before rendering. */
export async function signInAs(sandbox: Sandbox, userId: string): Promise<string> {
  const token = await mintToken(sandbox, userId);
  writeAccessToken(token);
  return token;
}

export type IdentityProviderAdminSetup = {
  /** A participant admin's token, for seeding further data. */
  adminToken: string;
  identityProviderId: string;
  userId: string;
};

/**
 * In a jwt-mode sandbox: creates an IdP and a user of it with the IdentityProviderAdmin right,
 * and signs the app in as that user.
 */
export async function signInAsIdentityProviderAdmin(
  sandbox: Sandbox,
  { identityProviderId = 'acme', userId = 'acme-admin' } = {},
): Promise<IdentityProviderAdminSetup> {
  const adminToken = await mintToken(sandbox, 'participant_admin');
  const admin = sandboxSteps(sandbox, adminToken);
  await admin.createIdentityProvider(identityProviderId);
  await admin.createUser(userId, {
    identityProviderId,
    rights: [{ kind: 'IdentityProviderAdmin' }],
  });
  await signInAs(sandbox, userId);
  return { adminToken, identityProviderId, userId };
}
