import { SignJWT } from 'jose';

/**
 * The HS256 key of a shared secret. Built with this realm's Uint8Array: under jsdom (component
 * tests run the sandbox in process) jose's browser build takes neither a KeyObject nor
 * TextEncoder's other-realm arrays.
 */
export function hmacKey(secret: string): Uint8Array {
  return Uint8Array.from(Buffer.from(secret, 'utf8'));
}

/**
 * A scope-based user token (`sub` = user id, `scope` = `daml_ledger_api`) signed with the
 * sandbox's HS256 secret: what `npm run sandbox` and `npm start` hand out in jwt mode, and what
 * the sign-in screen mints for default-IdP users.
 */
export function mintUserToken(secret: string, userId: string, expiresIn = '12h'): Promise<string> {
  return new SignJWT({ scope: 'daml_ledger_api' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(hmacKey(secret));
}
