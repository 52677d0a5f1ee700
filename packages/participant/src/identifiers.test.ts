import { describe, expect, it } from 'vitest';
import {
  damlLfStringMessage,
  firstDisallowedChar,
  idStringProblem,
  isValidIdString,
  LEDGER_STRING,
  PACKAGE_ID_STRING,
  PARTY_STRING,
  USER_ID_REGEX_TEXT,
  USER_ID_STRING,
  USER_ID_SYMBOLS,
  userIdRegexMessage,
} from './identifiers';

describe('identifier strings', () => {
  it('checks emptiness, then length, then the first character not allowed', () => {
    expect(idStringProblem(PARTY_STRING, '')).toEqual({ kind: 'empty' });
    expect(idStringProblem(PARTY_STRING, '!'.repeat(256))).toEqual({
      kind: 'too-long',
      length: 256,
      maxLength: 255,
    });
    expect(idStringProblem(PARTY_STRING, 'alice::12!0?')).toEqual({ kind: 'bad-char', char: '!' });
    expect(idStringProblem(PARTY_STRING, 'Alice_1::1220-ab cd')).toBeUndefined();
  });

  it('allows each kind its own characters', () => {
    expect(isValidIdString(LEDGER_STRING, 'cmd.1/a#b:c-d_e f')).toBe(true);
    expect(firstDisallowedChar(PARTY_STRING, 'cmd.1')).toBe('.');
    expect(isValidIdString(PACKAGE_ID_STRING, 'a'.repeat(64))).toBe(true);
    expect(isValidIdString(PACKAGE_ID_STRING, 'a'.repeat(65))).toBe(false);
    expect(firstDisallowedChar(PACKAGE_ID_STRING, 'pkg:1')).toBe(':');
    expect(isValidIdString(USER_ID_STRING, `Alice9${USER_ID_SYMBOLS}`)).toBe(true);
    expect(firstDisallowedChar(USER_ID_STRING, 'alice bob')).toBe(' ');
    expect(isValidIdString(USER_ID_STRING, 'u'.repeat(129))).toBe(false);
  });

  it('agrees with the regex the server prints for user ids', () => {
    const regex = new RegExp(`^${USER_ID_REGEX_TEXT}$`);
    for (const id of [
      '',
      'alice',
      'a b',
      'é',
      `x${USER_ID_SYMBOLS}`,
      'u'.repeat(128),
      'u'.repeat(129),
    ]) {
      expect(isValidIdString(USER_ID_STRING, id), id).toBe(regex.test(id));
    }
  });

  it('words problems as the participant does', () => {
    expect(damlLfStringMessage(PARTY_STRING, '', { kind: 'empty' })).toBe('Daml-LF Party is empty');
    expect(
      damlLfStringMessage(LEDGER_STRING, 'x', { kind: 'too-long', length: 256, maxLength: 255 }),
    ).toBe('Daml-LF Ledger String is too long (max: 255)');
    expect(damlLfStringMessage(PACKAGE_ID_STRING, 'a!', { kind: 'bad-char', char: '!' })).toBe(
      'non expected character 0x21 in Daml-LF Package ID "a!"',
    );
    expect(userIdRegexMessage('a b')).toBe(
      `User ID "a b" does not match regex "[a-zA-Z0-9@^$.!\`\\-#+'~_|:()]{1,128}"`,
    );
  });
});
