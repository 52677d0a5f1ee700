import {
  idStringProblem,
  PARTY_STRING,
  USER_ID_STRING,
  USER_ID_SYMBOLS,
} from '@ledger-console/participant/identifiers';
import { describe, expect, it } from 'vitest';
import { idStringProblemText, type IdStringWords } from './id-string-problem-text';

const userId: IdStringWords = {
  empty: 'Required: a user id',
  noun: 'user id',
  showsLength: true,
  allowed: `: use ASCII letters, digits and ${USER_ID_SYMBOLS}`,
};
const userText = (id: string) => idStringProblemText(idStringProblem(USER_ID_STRING, id), userId);

describe('idStringProblemText', () => {
  it('says nothing of a valid string', () => {
    expect(userText('alice')).toBeUndefined();
    expect(idStringProblemText(undefined, userId)).toBeUndefined();
  });

  it('words each problem the participant finds, naming the kind of id', () => {
    expect(userText('')).toBe('Required: a user id');
    expect(userText('x'.repeat(129))).toBe('A user id has at most 128 characters (this has 129)');
    expect(userText('a b')).toBe(
      `A space is not allowed in a user id: use ASCII letters, digits and ${USER_ID_SYMBOLS}`,
    );
    expect(userText('a*b')).toBe(
      `"*" is not allowed in a user id: use ASCII letters, digits and ${USER_ID_SYMBOLS}`,
    );
  });

  it("leaves the kind of id to the field's label, and the length out, where the form says so", () => {
    const words: IdStringWords = { empty: 'Choose one', showsLength: false, allowed: '.' };
    expect(idStringProblemText(idStringProblem(PARTY_STRING, 'p'.repeat(256)), words)).toBe(
      'At most 255 characters',
    );
    expect(idStringProblemText(idStringProblem(PARTY_STRING, 'p!'), words)).toBe(
      '"!" is not allowed.',
    );
  });
});
