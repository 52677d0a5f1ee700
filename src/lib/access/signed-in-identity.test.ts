import { describe, expect, it } from 'vitest';
import { claimText, fitText, MAX_CLAIM_TEXT, personNameOf, textWidth } from './signed-in-identity';

describe('personNameOf', () => {
  it('takes name, else preferred_username, else email', () => {
    expect(personNameOf({ sub: 'f81d4fae', name: 'Alice Anderson', email: 'a@x.io' })).toBe(
      'Alice Anderson',
    );
    expect(personNameOf({ name: '  ', preferred_username: 'alice', email: 'a@x.io' })).toBe(
      'alice',
    );
    expect(personNameOf({ name: 42, email: 'alice@corp.example' })).toBe('alice@corp.example');
    expect(personNameOf({ sub: 'f81d4fae' })).toBeUndefined();
    expect(personNameOf(undefined)).toBeUndefined();
  });

  it('keeps a claim to one line of bounded text, its hidden characters shown', () => {
    expect(personNameOf({ name: 'Mallory\n\tEve' })).toBe('Mallory Eve');
    expect(personNameOf({ name: 'evil\u202Egnp.exe' })).toBe('evil⟨U+202E⟩gnp.exe');
    const huge = claimText('word '.repeat(200_000));
    expect(huge?.length).toBeLessThanOrEqual(MAX_CLAIM_TEXT);
    expect(huge).toMatch(/^word( word)* …$/);
    expect(personNameOf({ name: '<img src=x onerror=alert(1)>' })).toBe(
      '<img src=x onerror=alert(1)>',
    );
  });
});

describe('fitText', () => {
  it('leaves text that fits as it is', () => {
    expect(fitText('Alice Anderson', 28)).toBe('Alice Anderson');
  });

  it('cuts after the last whole word that fits, never inside one', () => {
    const fitted = fitText('Alexandra Bartholomew-Featherstonehaugh the Third', 28);
    expect(fitted).toBe('Alexandra …');
    expect(fitText('IdP admin of acme-idp · expires in 10 min', 28)).toBe(
      'IdP admin of acme-idp …',
    );
    for (const budget of [10, 14, 20, 28]) {
      const text = fitText('Maria de los Angeles Fernandez Garcia', budget);
      expect(textWidth(text)).toBeLessThanOrEqual(budget);
      for (const word of text.replace(' …', '').split(' ')) {
        expect('Maria de los Angeles Fernandez Garcia'.split(' ')).toContain(word);
      }
    }
  });

  it('shortens a single long token in the middle, as ids are shown', () => {
    expect(fitText('5f3c2d1e-aaaa-bbbb-cccc-1234567890ab', 28)).toBe('5f3c2d…90ab');
    const fitted = fitText('x'.repeat(40), 8);
    expect(textWidth(fitted)).toBeLessThanOrEqual(8);
    expect(fitted).toContain('…');
  });

  it('counts ideographs as two columns and never splits a grapheme', () => {
    expect(textWidth('山田太郎')).toBe(8);
    expect(fitText('山田太郎 山田花子', 10)).toBe('山田太郎 …');
    expect(fitText('👩‍💻'.repeat(20), 6)).not.toMatch(/\u200D…|…\u200D/u);
  });
});
