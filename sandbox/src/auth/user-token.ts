import { SignJWT } from 'jose';

/**
 * The HS256 key of a shared secret. Built with this realm's Uint8Array: under jsdom (component
 * tests run the sandbox in process) jose's browser build takes neither a KeyObject nor
 * TextEncoder's other-realm arrays.
 */
export function hmacKey(secret: string): Uint8Array {
  return Uint8Array.from(Buffer.from(secret, 'utf8'));
}

export const PARTICIPANT_AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

/** The audience Canton 3.5 expects in an audience-based token for this participant. */
export function participantAudience(participantId: string): string {
  return `${PARTICIPANT_AUDIENCE_PREFIX}${participantId}`;
}

/**
 * A scope-based user token (`sub` = user id, `scope` = `daml_ledger_api`) signed with the
 * sandbox's HS256 secret: what `npm run sandbox` and `npm start` hand out in jwt mode, and what
 * the sign-in screen mints for default-IdP users.
 */
export function mintUserToken(
  secret: string,
  userId: string,
  expiresIn = '12h',
  /** A participant id: the token is then audience-based, for that participant only (a fleet's). */
  forParticipant?: string,
): Promise<string> {
  const jwt = new SignJWT(forParticipant === undefined ? { scope: 'daml_ledger_api' } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn);
  if (forParticipant !== undefined) jwt.setAudience(participantAudience(forParticipant));
  return jwt.sign(hmacKey(secret));
}
