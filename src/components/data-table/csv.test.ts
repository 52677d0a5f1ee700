import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it('leaves plain text, numbers and booleans as they are', () => {
    expect(csvCell('alice')).toBe('alice');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(false)).toBe('false');
  });

  it('writes null and undefined as an empty cell', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes cells with commas, quotes and line breaks and doubles the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
  });

  it('keeps leading and trailing spaces by quoting', () => {
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('defuses text a spreadsheet would evaluate as a formula: prefixed and quoted', () => {
    expect(csvCell('=1+2')).toBe(`"'=1+2"`);
    expect(csvCell('+cmd')).toBe(`"'+cmd"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\t=x')).toBe(`"'\t=x"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it.each([
    ['a space', ' =1+2'],
    ['spaces and a tab', '  \t @SUM(A1)'],
    ['a line feed', '\n=cmd|calc'],
    ['a carriage return and line feed', '\r\n+1'],
    ['a no-break space', '\u00A0=1+2'],
    ['an ideographic space', '\u3000-2+3'],
    ['a zero-width space', '\u200B=1'],
    ['a byte order mark', '\uFEFF@x'],
  ])('defuses a formula behind %s', (_what, text) => {
    expect(csvCell(text)).toBe(`"'${text}"`);
  });

  it.each(['＝1+2', '＋cmd', '－2+3', '＠SUM(A1)', '﹦1', '﹢1', '﹣1', '﹫x', ' ＝1'])(
    'defuses the full-width or small form in %s',
    (text) => {
      expect(csvCell(text)).toBe(`"'${text}"`);
    },
  );

  it('leaves text alone whose first visible character is harmless', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('alice@example.com')).toBe('alice@example.com');
    expect(csvCell(' ')).toBe('" "');
    expect(csvCell('\nline')).toBe('"\nline"');
    expect(csvCell('')).toBe('');
    expect(csvCell('😀=1')).toBe('😀=1');
  });

  it('does not touch negative numbers, which are data, not text', () => {
    expect(csvCell(-1)).toBe('-1');
  });
});

describe('toCsv', () => {
  it('writes a header and one CRLF-terminated line per row', () => {
    expect(
      toCsv(
        ['id', 'note'],
        [
          ['alice', 'x, y'],
          ['bob', ''],
        ],
      ),
    ).toBe('id,note\r\nalice,"x, y"\r\nbob,\r\n');
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(['id'], [])).toBe('id\r\n');
  });
});
