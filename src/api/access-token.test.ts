import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '@/testing/memory-storage';
import {
  identityDataStorage,
  identityScopedKey,
  isAccessTokenRemembered,
  readAccessToken,
  readSignInProviderId,
  writeAccessToken,
} from './access-token';

/** An unsigned JWT with these claims: the console reads claims, only the participant verifies. */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'none' })}.${part(claims)}.sig`;
}

describe('access token', () => {
  let storage: MemoryStorage;
  let local: MemoryStorage;

  beforeEach(() => {
    storage = new MemoryStorage();
    local = new MemoryStorage();
    vi.stubGlobal('sessionStorage', storage);
    vi.stubGlobal('localStorage', local);
  });

  it('is kept in local storage only when the user asks to remember it', () => {
    writeAccessToken('eyJ.remembered.sig', { remember: true });
    expect(readAccessToken()).toBe('eyJ.remembered.sig');
    expect(isAccessTokenRemembered()).toBe(true);
    expect(storage.length).toBe(0);

    writeAccessToken('eyJ.session.sig');
    expect(readAccessToken()).toBe('eyJ.session.sig');
    expect(isAccessTokenRemembered()).toBe(false);
    expect(local.length).toBe(0);

    writeAccessToken(undefined);
    expect(readAccessToken()).toBeUndefined();
  });

  it('is absent until one is written', () => {
    expect(readAccessToken()).toBeUndefined();
  });

  it('is kept in session storage, without surrounding whitespace', () => {
    writeAccessToken('  eyJ.token.sig \n');

    expect(readAccessToken()).toBe('eyJ.token.sig');
    expect(storage.length).toBe(1);
  });

  it('is removed by writing nothing or a blank string', () => {
    writeAccessToken('eyJ.token.sig');
    writeAccessToken('   ');
    expect(readAccessToken()).toBeUndefined();

    writeAccessToken('eyJ.token.sig');
    writeAccessToken(undefined);
    expect(readAccessToken()).toBeUndefined();
    expect(storage.length).toBe(0);
  });

  it("forgets the session's data of the previous identity when the token changes or goes", () => {
    writeAccessToken('eyJ.alice.sig');
    storage.setItem('ledger-console.composer.draft:alice', '{}');
    storage.setItem('someone-else', 'kept');
    writeAccessToken(undefined);
    expect(storage.getItem('ledger-console.composer.draft:alice')).toBeNull();
    expect(storage.getItem('someone-else')).toBe('kept');

    storage.setItem('ledger-console.composer.draft:', '{}');
    writeAccessToken('eyJ.bob.sig');
    expect(storage.getItem('ledger-console.composer.draft:')).toBeNull();
    expect(readAccessToken()).toBe('eyJ.bob.sig');
  });

  it("keeps the session's drafts and the provider when the same identity's token is renewed", () => {
    writeAccessToken(jwt({ sub: 'alice', iss: 'https://idp.example', iat: 1 }), {
      providerId: 'corp',
    });
    storage.setItem('ledger-console.composer.draft:alice', '{"half":"typed"}');
    expect(readSignInProviderId()).toBe('corp');

    writeAccessToken(jwt({ sub: 'alice', iss: 'https://idp.example', iat: 2 }), {
      providerId: 'corp',
    });
    expect(storage.getItem('ledger-console.composer.draft:alice')).toBe('{"half":"typed"}');
    expect(readSignInProviderId()).toBe('corp');

    // The same subject at another issuer is someone else.
    writeAccessToken(jwt({ sub: 'alice', iss: 'https://other.example' }));
    expect(storage.getItem('ledger-console.composer.draft:alice')).toBeNull();
    expect(readSignInProviderId()).toBeUndefined();
    writeAccessToken(undefined);
    expect(storage.length).toBe(0);
  });

  it('is absent where there is no session storage, or reading it throws', () => {
    vi.stubGlobal('sessionStorage', undefined);
    vi.stubGlobal('localStorage', undefined);
    expect(readAccessToken()).toBeUndefined();
    expect(() => {
      writeAccessToken('eyJ.token.sig');
    }).not.toThrow();

    // Some privacy modes throw a SecurityError on access.
    Object.defineProperty(globalThis, 'sessionStorage', {
      configurable: true,
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(readAccessToken()).toBeUndefined();
  });

  it('keys data by the identity the token names: issuer and subject, else a digest', () => {
    const keyFor = (token: string | undefined) => {
      writeAccessToken(token);
      return identityScopedKey('composer.history', 'sandbox::1220ab');
    };
    const anonymous = keyFor(undefined);
    const alice = keyFor(jwt({ sub: 'alice', iat: 1 }));
    expect(keyFor(jwt({ sub: 'alice', iat: 2 }))).toBe(alice);
    expect(keyFor(jwt({ sub: 'alice', iss: 'https://idp.example' }))).not.toBe(alice);
    expect(keyFor(jwt({ sub: 'bob' }))).not.toBe(alice);
    const opaque = keyFor('not-a-jwt');
    expect(opaque).not.toContain('not-a-jwt');
    expect(keyFor('another-opaque-token')).not.toBe(opaque);
    expect(new Set([anonymous, alice, opaque]).size).toBe(3);
    // The scope is part of the key too.
    expect(identityScopedKey('composer.history', 'other::1220ab')).not.toBe(
      identityScopedKey('composer.history', 'sandbox::1220ab'),
    );
  });

  it("keeps an identity's data as long as its sign-in, and forgets it when it ends", () => {
    // No token: local storage, and signing in or out never forgets it.
    expect(identityDataStorage()).toBe(local);
    const anonymousKey = identityScopedKey('composer.history', 'p');
    local.setItem(anonymousKey, 'anonymous');

    writeAccessToken(jwt({ sub: 'alice', iat: 1 }), { remember: true });
    expect(identityDataStorage()).toBe(local);
    const aliceKey = identityScopedKey('composer.history', 'p');
    local.setItem(aliceKey, 'alice');
    // A renewed token of the same identity keeps it.
    writeAccessToken(jwt({ sub: 'alice', iat: 2 }), { remember: true });
    expect(local.getItem(aliceKey)).toBe('alice');

    // Not remembered: session storage, as the token.
    writeAccessToken(jwt({ sub: 'bob' }));
    expect(local.getItem(aliceKey)).toBeNull();
    expect(identityDataStorage()).toBe(storage);
    const bobKey = identityScopedKey('composer.history', 'p');
    storage.setItem(bobKey, 'bob');

    writeAccessToken(undefined);
    expect(storage.getItem(bobKey)).toBeNull();
    expect(local.getItem(anonymousKey)).toBe('anonymous');
  });
});
