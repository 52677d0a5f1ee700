/**
 * What the token doctor knows besides the token: gathered by the feature with the console's current
 * sign-in (never with the pasted token) and handed to `diagnoseToken`.
 */
import type { UserRight } from '@/lib/access/access-rights';

/** A sign-in provider of this console (GET /__console/sign-in-providers). */
export type SignInProviderInfo = {
  id: string;
  name: string;
  /** The OpenID issuer (`oidc.authority`). */
  issuer: string;
  /** The participant IdP its users belong to; `''` is the default IdP. */
  identityProviderId: string;
  audience?: string;
};

/** An IdP configuration of the participant (GET /v2/idps). */
export type IdentityProviderInfo = {
  identityProviderId: string;
  issuer: string;
  isDeactivated: boolean;
  /** `''` when unset. */
  audience: string;
};

/** What a lookup made with the console's current sign-in found. */
export type Lookup<T> =
  | { status: 'found'; value: T }
  | { status: 'not-found' }
  | { status: 'forbidden' }
  /** Nobody is signed in to the console, so the participant was not asked. */
  | { status: 'signed-out' }
  | { status: 'failed'; message: string };

export type UserRecord = { id: string; isDeactivated: boolean; identityProviderId: string };

export type DoctorContext = {
  /** Milliseconds since the epoch. */
  now: number;
  clockSkewSeconds?: number;
  /** `undefined`: the console server did not say (no server, or an older one). */
  providers?: readonly SignInProviderInfo[];
  /** From GET /v2/parties/participant-id; `undefined` when it could not be read. */
  participantId?: string;
  /** Only a participant admin may list them; `undefined` when not asked. */
  identityProviders?: Lookup<readonly IdentityProviderInfo[]>;
  /** The token's user, looked up in the IdP `identityProviderOfToken` names. */
  user?: Lookup<UserRecord>;
  rights?: Lookup<readonly UserRight[]>;
  /** Whether the console's current sign-in is a participant admin (reads every IdP's users). */
  callerIsParticipantAdmin?: boolean;
  /**
   * The participant answered the console without any token as a caller with every right: it runs
   * without auth services, and ignores tokens altogether.
   */
  participantIgnoresTokens?: boolean;
};
