import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '@/testing/memory-storage';
import { readAccessToken, writeAccessToken } from './access-token';

describe('access token', () => {
  let storage: MemoryStorage;

  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('sessionStorage', storage);
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

  it('is absent where there is no session storage, or reading it throws', () => {
    vi.stubGlobal('sessionStorage', undefined);
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
