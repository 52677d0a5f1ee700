import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '@/testing/memory-storage';
import { isAccessTokenRemembered, readAccessToken, writeAccessToken } from './access-token';

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
});
