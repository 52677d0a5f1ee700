import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * A scope-based user token (`sub` = user id, `scope` = `daml_ledger_api`) signed with the
 * sandbox's HS256 secret: what `npm run sandbox` and `npm start` hand out in jwt mode.
 */
export function mintUserToken(secret: string, userId: string, expiresIn = '12h'): Promise<string> {
  return new SignJWT({ scope: 'daml_ledger_api' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(createSecretKey(Buffer.from(secret, 'utf8')));
}
