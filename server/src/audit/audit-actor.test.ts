import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerToken, decodeClaims, TokenUsers } from './audit-actor';

const jwt = (claims: Record<string, unknown>) =>
  `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('decodeClaims', () => {
  it('reads iss, sub and exp without verifying, and nothing from what is no JWT', () => {
    expect(decodeClaims(jwt({ iss: 'https://idp', sub: 'ann', exp: 2 }))).toEqual({
      issuer: 'https://idp',
      subject: 'ann',
      expiresAtMs: 2000,
    });
    expect(decodeClaims(jwt({ sub: 42 }))).toEqual({ issuer: null, subject: null });
    for (const token of ['opaque-token', 'a.%%%.c', jwt({}).replace('.', '')]) {
      expect(decodeClaims(token)).toMatchObject({ issuer: null, subject: null });
    }
    expect(decodeClaims(jwt({ sub: 'x'.repeat(5000) })).subject).toHaveLength(1024);
  });

  it('takes the token of a Bearer header only', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('TokenUsers', () => {
  // A participant stand-in that counts how often it is asked: only the cache is under test.
  let asked = 0;
  let server: http.Server;
  let url: URL;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      asked += 1;
      const token = (req.headers.authorization ?? '').slice('Bearer '.length);
      const sub = decodeClaims(token).subject;
      if (sub === 'refused') res.writeHead(401).end('{"code":"NA"}');
      else res.writeHead(200).end(JSON.stringify({ user: { id: sub, identityProviderId: 'idp' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}`);
  });
  afterAll(() => {
    server.close();
  });

  it('asks once per token until it expires, and keeps at most 1000 tokens', async () => {
    let now = 1_000_000;
    const users = new TokenUsers(url, () => now);
    const token = jwt({ sub: 'ann', exp: 1_000_000 / 1000 + 60 });
    const claims = decodeClaims(token);
    asked = 0;
    expect(await users.userOf(token, claims)).toEqual({ userId: 'ann', identityProviderId: 'idp' });
    await users.userOf(token, claims);
    expect(asked).toBe(1);
    now += 61_000;
    await users.userOf(token, claims);
    expect(asked).toBe(2);
    const refused = jwt({ sub: 'refused' });
    expect(await users.userOf(refused, decodeClaims(refused))).toBeNull();

    for (let batch = 0; batch < 11; batch += 1) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const other = jwt({ sub: `u${String(batch * 100 + i)}` });
          return users.userOf(other, decodeClaims(other));
        }),
      );
    }
    expect(users.size).toBe(1000);
  }, 30_000);
});
