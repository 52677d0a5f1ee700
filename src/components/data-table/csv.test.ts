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

  it('defuses text a spreadsheet would evaluate as a formula', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=x')).toBe("'\t=x");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
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
