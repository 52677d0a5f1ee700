import { describe, expect, it } from 'vitest';
import { parseCsv } from './bulk-import-csv';

const LIMITS = { maxRecords: 100, maxFields: 10, maxFieldLength: 50 };
const fieldsOf = (text: string) => {
  const result = parseCsv(text, LIMITS);
  if (!result.ok) throw new Error(`${result.problem} (line ${String(result.line)})`);
  return result.records.map((record) => record.fields);
};

describe('parseCsv', () => {
  it('reads plain records with LF, CRLF and lone CR line ends, and a last line without one', () => {
    expect(fieldsOf('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(fieldsOf('a,b\r\nc,d\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(fieldsOf('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('strips a leading BOM, so the first column keeps its name', () => {
    expect(fieldsOf('\uFEFFuserId,party\r\nx,y')).toEqual([
      ['userId', 'party'],
      ['x', 'y'],
    ]);
  });

  it('reads quoted fields: doubled quotes, commas and line breaks inside', () => {
    expect(fieldsOf('"a ""quoted"" word","x,y","line\r\nbreak"\r\nnext,"",\r\n')).toEqual([
      ['a "quoted" word', 'x,y', 'line\r\nbreak'],
      ['next', '', ''],
    ]);
  });

  it('keeps empty fields, and skips blank lines between records', () => {
    expect(fieldsOf('a,,c\n\n\r\n,b,\n')).toEqual([
      ['a', '', 'c'],
      ['', 'b', ''],
    ]);
  });

  it('tells the line of each record, counting line breaks inside quotes', () => {
    const result = parseCsv('h\n"two\nlines"\nthree\n', LIMITS);
    expect(result.ok && result.records.map((record) => record.line)).toEqual([1, 2, 4]);
  });

  it('refuses what a spreadsheet would read differently, naming the line', () => {
    expect(parseCsv('a,b\nx"y,z', LIMITS)).toEqual({
      ok: false,
      problem: 'A quote inside an unquoted field: put the whole field in quotes',
      line: 2,
    });
    expect(parseCsv('a\n"x"y', LIMITS)).toMatchObject({ ok: false, line: 2 });
    expect(parseCsv('a\n"never closed\nb', LIMITS)).toEqual({
      ok: false,
      problem: 'A quoted field is never closed',
      line: 2,
    });
  });

  it('stops at its limits: records, fields per record, field length', () => {
    expect(parseCsv('a\n'.repeat(101), LIMITS)).toMatchObject({ ok: false, line: 101 });
    expect(parseCsv('a\n'.repeat(100), LIMITS).ok).toBe(true);
    expect(parseCsv(`${'x,'.repeat(10)}x`, LIMITS)).toMatchObject({
      ok: false,
      problem: 'A record has more than 10 fields',
    });
    expect(parseCsv(`ok\n"${'y'.repeat(51)}"`, LIMITS)).toMatchObject({
      ok: false,
      problem: 'A field is longer than 50 characters',
      line: 2,
    });
  });
});
