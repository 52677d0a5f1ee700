import { generateKeyPair, SignJWT, type CryptoKey, type KeyObject } from 'jose';
import type { IdpsStore } from '../store/idps-store';
import type { UsersStore } from '../store/users-store';
import { mintUserToken } from './user-token';

/**
 * Key id of the sandbox's own RS256 key. Tokens the sandbox mints for users of a non-default IdP
 * carry it, and the authenticator verifies them with that key instead of the IdP's JWKS URL (which
 * the sandbox cannot reach, and which a demo IdP does not have). A real participant would refuse
 * such a token; only the sandbox can mint one.
 */
export const SANDBOX_MINT_KEY_ID = 'ledger-console-sandbox-mint';

const MINTED_TOKEN_LIFETIME = '8h';

export type TokenMinterOptions = {
  /** HS256 secret of the `unsafe-jwt-hmac-256` service; minting needs it. */
  jwtSecret?: string;
  users: UsersStore;
  idps: IdpsStore;
  /** Why there is no secret to mint with, when it is not "no authentication". */
  noSecretReason?: string;
  /**
   * Mint default-IdP tokens with this participant's audience instead of the scope, so no other
   * participant sharing the secret accepts them (a fleet member's).
   */
  audienceParticipantId?: string;
};

/** A public or private RS256 key as jose hands it out. */
export type MintVerificationKey = CryptoKey | KeyObject;

export type MintResult =
  | { kind: 'token'; token: string; userId: string; identityProviderId: string }
  | { kind: 'unknown-user' }
  | { kind: 'unavailable'; reason: string };

/**
 * Sandbox-only convenience: signs a user token for any user, so every role can be tried from the
 * console's sign-in screen. Default-IdP users get a scope-based HS256 token, exactly as a
 * participant with a shared secret accepts it; IdP users get an RS256 token with the IdP's issuer
 * and audience, signed by the sandbox's own key (see {@link SANDBOX_MINT_KEY_ID}).
 */
export function createTokenMinter(options: TokenMinterOptions) {
  const secret = options.jwtSecret;
  let keyPair: { publicKey: MintVerificationKey; privateKey: MintVerificationKey } | undefined;
  // Made on first use: a 2048-bit key costs tens of milliseconds, which most runs never need.
  // jose's own generator, so the key suits whichever jose build runs (Node, or jsdom in tests).
  const rsaKeys = async () => (keyPair ??= await generateKeyPair('RS256'));

  return {
    /** The public key for tokens with {@link SANDBOX_MINT_KEY_ID}; undefined until one was minted. */
    verificationKey: (): MintVerificationKey | undefined => keyPair?.publicKey,

    async mint(userId: string): Promise<MintResult> {
      if (!secret) {
        return {
          kind: 'unavailable',
          reason: options.noSecretReason ?? 'The sandbox runs without authentication',
        };
      }
      const user = options.users.get(userId);
      if (!user) return { kind: 'unknown-user' };
      const { identityProviderId } = user;
      if (identityProviderId === '') {
        const token = await mintUserToken(
          secret,
          userId,
          MINTED_TOKEN_LIFETIME,
          options.audienceParticipantId,
        );
        return { kind: 'token', token, userId, identityProviderId };
      }
      const idp = options.idps.get(identityProviderId);
      if (!idp) return { kind: 'unavailable', reason: `IdP ${identityProviderId} does not exist` };
      if (idp.isDeactivated) {
        return {
          kind: 'unavailable',
          reason: `IdP ${identityProviderId} is deactivated, so no token of it is accepted`,
        };
      }
      const jwt = new SignJWT({ scope: 'daml_ledger_api' })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: SANDBOX_MINT_KEY_ID })
        .setSubject(userId)
        .setIssuer(idp.issuer)
        .setIssuedAt()
        .setExpirationTime(MINTED_TOKEN_LIFETIME);
      if (idp.audience) jwt.setAudience(idp.audience);
      const token = await jwt.sign((await rsaKeys()).privateKey);
      return { kind: 'token', token, userId, identityProviderId };
    },
  };
}

export type TokenMinter = ReturnType<typeof createTokenMinter>;
