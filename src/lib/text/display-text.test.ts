import { describe, expect, it } from 'vitest';
import {
  hasBidiControls,
  hasSpoofingCharacters,
  identifierText,
  isolateIdentifier,
  revealBidiControls,
  revealControls,
  splitIsolates,
} from './display-text';
import { shortenQualifiedName } from './format';

describe('revealControls', () => {
  it.each([
    ['\u202Egnp.exe\u202C', '⟨U+202E⟩gnp.exe⟨U+202C⟩'],
    ['a\u202Ab\u202Bc\u202Dd', 'a⟨U+202A⟩b⟨U+202B⟩c⟨U+202D⟩d'],
    ['\u2066x\u2067y\u2068z\u2069', '⟨U+2066⟩x⟨U+2067⟩y⟨U+2068⟩z⟨U+2069⟩'],
    ['l\u200Er\u200Fa\u061C', 'l⟨U+200E⟩r⟨U+200F⟩a⟨U+061C⟩'],
    ['al\u200Bice\u200C\u200D\u2060\uFEFF', 'al⟨U+200B⟩ice⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩'],
    ['tab\there\nnul\u0000del\u007F', 'tab⟨U+0009⟩here⟨U+000A⟩nul⟨U+0000⟩del⟨U+007F⟩'],
    ['c1\u0085\u009B', 'c1⟨U+0085⟩⟨U+009B⟩'],
    ['line\u2028para\u2029', 'line⟨U+2028⟩para⟨U+2029⟩'],
    ['tag\u{E0041}', 'tag⟨U+E0041⟩'],
  ])('shows the hidden characters of %j', (text, shown) => {
    expect(revealControls(text)).toBe(shown);
  });

  it('leaves ordinary identifiers, right-to-left letters and emoji alone', () => {
    for (const text of ['alice::1220abcd', 'user@example.com', 'שלום', 'مرحبا', 'café 🎉']) {
      expect(revealControls(text)).toBe(text);
      expect(hasSpoofingCharacters(text)).toBe(false);
    }
  });

  it('says when a text holds something hidden', () => {
    expect(hasSpoofingCharacters('key-\u202E1')).toBe(true);
    expect(hasSpoofingCharacters('al\u200Bice')).toBe(true);
    expect(hasSpoofingCharacters('a\nb')).toBe(true);
  });
});

describe('revealBidiControls', () => {
  it('shows only the characters that reorder the text around them', () => {
    expect(revealBidiControls('\u202Egnp.exe\u202C and \u2067x\u2069')).toBe(
      '⟨U+202E⟩gnp.exe⟨U+202C⟩ and ⟨U+2067⟩x⟨U+2069⟩',
    );
    // Marks, joiners and line feeds are legitimate in prose and in right-to-left scripts.
    const prose = 'עברית\u200F, نص\u200D\nnext line';
    expect(revealBidiControls(prose)).toBe(prose);
    expect(hasBidiControls(prose)).toBe(false);
    expect(hasBidiControls('x\u202Dy')).toBe(true);
  });
});

describe('isolateIdentifier and splitIsolates', () => {
  it('isolates a value in a sentence and gives it back as its own part', () => {
    const sentence = `kid is "${isolateIdentifier('key-\u202E1')}", typ is "JWT"`;
    expect(splitIsolates(sentence)).toEqual([
      { text: 'kid is "', isIsolated: false },
      { text: 'key-⟨U+202E⟩1', isIsolated: true },
      { text: '", typ is "JWT"', isIsolated: false },
    ]);
  });

  it('cannot be closed early by an isolate inside the value', () => {
    const sentence = `a ${isolateIdentifier('x\u2069 y \u2068z')} b ${isolateIdentifier('w')}`;
    expect(splitIsolates(sentence)).toEqual([
      { text: 'a ', isIsolated: false },
      { text: 'x⟨U+2069⟩ y ⟨U+2068⟩z', isIsolated: true },
      { text: ' b ', isIsolated: false },
      { text: 'w', isIsolated: true },
    ]);
  });

  it('keeps a sentence without isolates whole', () => {
    expect(splitIsolates('no values here')).toEqual([
      { text: 'no values here', isIsolated: false },
    ]);
    expect(splitIsolates('')).toEqual([]);
  });
});

describe('identifierText', () => {
  const party = 'alice::1220abcdef0123456789abcdef';

  it('shortens an ordinary id and keeps the full id for the hover', () => {
    expect(identifierText(party)).toEqual({ shown: 'alice::1220ab…cdef', title: party });
    expect(identifierText(party, false)).toEqual({ shown: party, title: undefined });
  });

  it('shows an id with hidden characters whole, revealed', () => {
    const spoof = 'alice::1220abcdef\u200B0123456789abcdef';
    expect(identifierText(spoof)).toEqual({
      shown: 'alice::1220abcdef⟨U+200B⟩0123456789abcdef',
      title: undefined,
    });
  });

  it('shortens an id of another shape with the shortener it is given, never one with hidden characters', () => {
    const templateId = `${'f36ffe90d894'.repeat(5)}dfd6:Demo.Iou:Iou`;
    expect(identifierText(templateId, true, shortenQualifiedName)).toEqual({
      shown: 'f36ffe…dfd6:Demo.Iou:Iou',
      title: templateId,
    });
    const spoof = `${'f36ffe90d894'.repeat(5)}dfd6:Demo.Iou:I\u202Eou`;
    expect(identifierText(spoof, true, shortenQualifiedName).shown).toContain('⟨U+202E⟩');
    expect(identifierText(spoof, true, shortenQualifiedName).shown).not.toContain('…');
  });
});
