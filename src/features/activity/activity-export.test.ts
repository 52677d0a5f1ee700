import { describe, expect, it } from 'vitest';
import { createEntry, errorResult } from '@/lib/activity/activity-log';
import { activityCsv, activityFileName } from './activity-export';

describe('activity export', () => {
  it('writes CSV that a spreadsheet shows as text: formulas defused, quotes and line breaks kept', () => {
    const entry = createEntry({
      id: 'e1',
      at: '2026-11-23T10:00:00.000Z',
      actor: { kind: 'user', userId: '@admin', identityProviderId: '' },
      participantId: 'participant1',
      action: 'user.create',
      call: { method: 'POST', path: '/v2/users' },
      subjects: [{ kind: 'user', userId: '=HYPERLINK("http://evil")', identityProviderId: '' }],
      before: { kind: 'none' },
      after: { kind: 'unknown', reason: 'the call failed' },
      result: errorResult({
        status: 400,
        body: { code: 'INVALID_ARGUMENT', cause: '-1, "bad"\nsecond line' },
      }),
    });

    const [header, row, end] = activityCsv([entry]).split('\r\n');
    expect(header).toBe(
      'at,actor,participant,action,method,path,subjects,result,status,error message,correlation id,before,after',
    );
    expect(row).toBe(
      [
        '2026-11-23T10:00:00.000Z',
        `"'@admin"`,
        'participant1',
        'user.create',
        'POST',
        '/v2/users',
        // Starts with "user:", so no formula; its quotes are doubled.
        '"user:=HYPERLINK(""http://evil"")"',
        'INVALID_ARGUMENT',
        '400',
        `"'-1, ""bad""\nsecond line"`,
        '',
        '',
        '(unknown: the call failed)',
      ].join(','),
    );
    expect(end).toBe('');
  });

  it('names the file by the time, without characters file systems refuse', () => {
    expect(activityFileName('csv', new Date('2026-11-23T10:00:00.123Z'))).toBe(
      'activity-log-2026-11-23T10-00-00Z.csv',
    );
  });
});
