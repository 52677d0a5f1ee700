import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { hmacKey } from '../auth/user-token';

export const TEST_SECRET = 'test-secret-for-hs256-tokens';

/** An HS256 user token as a participant with `unsafe-jwt-hmac-256` accepts it. */
export async function hs256Token(
  userId: string,
  {
    secret = TEST_SECRET,
    expiresIn = '1h',
    claims = { scope: 'daml_ledger_api' },
  }: { secret?: string; expiresIn?: string; claims?: JWTPayload } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(hmacKey(secret));
}

/** A real loopback JWKS endpoint with one RS256 key, standing in for an IdP. */
export async function startIdentityProvider() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const jwksUrl = `http://127.0.0.1:${String(port)}/jwks.json`;
  return {
    jwksUrl,
    token: (
      userId: string,
      {
        issuer,
        audience,
        expiresIn = '1h',
      }: { issuer: string; audience?: string; expiresIn?: string },
    ) => {
      const jwt = new SignJWT({ scope: 'daml_ledger_api' })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(expiresIn);
      if (audience !== undefined) jwt.setAudience(audience);
      return jwt.sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
