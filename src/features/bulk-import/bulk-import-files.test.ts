import { describe, expect, it } from 'vitest';
import { parseImportFile } from './bulk-import-rows';
import { resultFile, resultFileName, templateFile } from './bulk-import-files';

const NAMESPACE = `1220${'cd'.repeat(32)}`;

describe('bulk import files', () => {
  it('writes templates that read back as two valid-looking rows, CSV and JSON alike', () => {
    const csv = templateFile('csv', NAMESPACE);
    expect(csv.split('\r\n')[0]).toBe(
      'userId,displayName,partyHint,party,rights,isDeactivated,externalPublicKey',
    );
    const fromCsv = parseImportFile('template.csv', csv);
    const fromJson = parseImportFile('template.json', templateFile('json', NAMESPACE));
    expect(fromCsv.ok && fromCsv.rows.map((row) => row.problems)).toEqual([[], []]);
    expect(fromJson.ok && fromJson.rows).toEqual(fromCsv.ok && fromCsv.rows);
  });

  it('neutralises formula-like cells in the CSV result, and keeps JSON as it was', () => {
    const results = [
      { row: 1, userId: '=cmd|x', party: '+p', outcome: 'failed' as const, reason: '@SUM(1)' },
      { row: 2, userId: '-dash', party: 'ok', outcome: 'skipped' as const, reason: 'a, "quoted"' },
    ];
    expect(resultFile('csv', results)).toBe(
      [
        'row,userId,party,outcome,reason',
        `1,"'=cmd|x","'+p",failed,"'@SUM(1)"`,
        `2,"'-dash",ok,skipped,"a, ""quoted"""`,
        '',
      ].join('\r\n'),
    );
    expect(JSON.parse(resultFile('json', results))).toEqual(results);
  });

  it('names the result file after the imported one, safely', () => {
    const now = new Date('2026-11-23T23:40:00.123Z');
    expect(resultFileName('people.csv', 'csv', now)).toBe(
      'people-results-2026-11-23T23-40-00Z.csv',
    );
    expect(resultFileName('../a b.JSON', 'json', now)).toBe(
      '..-a-b-results-2026-11-23T23-40-00Z.json',
    );
  });
});
