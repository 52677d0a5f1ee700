import { beforeEach, describe, expect, it, vi } from 'vitest';
import { writeAccessToken } from '@/api/access-token';
import { MemoryStorage } from '@/testing/memory-storage';
import {
  addVisit,
  flushVisits,
  MAX_VISIT_LENGTH,
  MAX_VISITS,
  parseVisits,
  readVisits,
  rememberVisit,
} from './visits';

/** An unsigned JWT naming `subject`: the console reads claims, only the participant verifies. */
function jwt(subject: string): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'none' })}.${part({ sub: subject, iss: 'https://idp.example' })}.sig`;
}

describe('visits', () => {
  it('puts the newest on top, once, bounded in number and length', () => {
    let visits: string[] = [];
    for (let n = 0; n < MAX_VISITS + 5; n++) visits = addVisit(visits, `/p/${String(n)}`);
    expect(visits).toHaveLength(MAX_VISITS);
    expect(visits[0]).toBe(`/p/${String(MAX_VISITS + 4)}`);
    visits = addVisit(visits, '/p/20');
    expect(visits[0]).toBe('/p/20');
    expect(visits.filter((visit) => visit === '/p/20')).toHaveLength(1);
    expect(addVisit(visits, `/${'x'.repeat(MAX_VISIT_LENGTH)}`)).toEqual(visits);
  });

  it('reads only what it could have written', () => {
    expect(parseVisits(null)).toEqual([]);
    expect(parseVisits('not json')).toEqual([]);
    expect(parseVisits('{"a":1}')).toEqual([]);
    expect(
      parseVisits(JSON.stringify(['/a', 1, null, 'x'.repeat(MAX_VISIT_LENGTH + 1), '/b'])),
    ).toEqual(['/a', '/b']);
    expect(parseVisits(JSON.stringify(Array.from({ length: 100 }, () => '/a')))).toHaveLength(
      MAX_VISITS,
    );
  });

  describe('in the browser', () => {
    beforeEach(() => {
      vi.stubGlobal('sessionStorage', new MemoryStorage());
      vi.stubGlobal('localStorage', new MemoryStorage());
    });

    it('are kept per identity, stored only when the page is hidden', () => {
      writeAccessToken(jwt('alice'));
      rememberVisit('/contracts/00ab');
      rememberVisit('/users');
      expect(readVisits()).toEqual(['/users', '/contracts/00ab']);
      // A navigation writes nothing (the token is all there is).
      expect(sessionStorage.length).toBe(1);
      flushVisits();
      expect(sessionStorage.length).toBe(2);
      rememberVisit('/parties');
      expect(readVisits()).toEqual(['/parties', '/users', '/contracts/00ab']);

      // Someone else signing in sees nothing of it, and it is not stored later either.
      writeAccessToken(jwt('bob'));
      expect(readVisits()).toEqual([]);
      flushVisits();
      expect(sessionStorage.length).toBe(1);
      writeAccessToken(jwt('alice'));
      expect(readVisits()).toEqual([]);
    });

    it('are stored for the browser session only, signed in or not', () => {
      rememberVisit('/sign-in');
      flushVisits();
      expect(localStorage.length).toBe(0);
      expect(readVisits()).toEqual(['/sign-in']);

      writeAccessToken(jwt('carol'), { remember: true });
      rememberVisit('/users');
      flushVisits();
      expect(readVisits()).toEqual(['/users']);
      expect(localStorage.length).toBe(1);
    });

    it('survive a storage that refuses to keep them', () => {
      const full = new MemoryStorage();
      full.setItem = () => {
        throw new DOMException('full', 'QuotaExceededError');
      };
      vi.stubGlobal('sessionStorage', full);
      rememberVisit('/users');
      expect(() => {
        flushVisits();
      }).not.toThrow();
      expect(readVisits()).toEqual([]);
    });
  });
});
