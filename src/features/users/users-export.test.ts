import { describe, expect, it } from 'vitest';
import type { User } from '@/api/users';
import { usersExportFileName, usersToCsv, usersToJson } from './users-export';

const users: User[] = [
  {
    id: 'alice',
    primaryParty: 'Alice::1220ab',
    isDeactivated: false,
    identityProviderId: '',
    metadata: { resourceVersion: '3', annotations: { note: 'says "hi", twice\nthen leaves' } },
    primaryPartyAuthentication: false,
  },
  {
    id: 'bob',
    primaryParty: '',
    isDeactivated: true,
    identityProviderId: 'acme',
    metadata: { resourceVersion: '0', annotations: { formula: '=cmd' } },
  },
  { id: '-1+1' },
];

describe('usersToCsv', () => {
  it('writes a header and one escaped line per user', () => {
    expect(usersToCsv(users)).toBe(
      [
        'id,primaryParty,identityProviderId,isDeactivated,annotationsCount,annotations,resourceVersion',
        'alice,Alice::1220ab,,false,1,"{""note"":""says \\""hi\\"", twice\\nthen leaves""}",3',
        'bob,,acme,true,1,"{""formula"":""=cmd""}",0',
        `"'-1+1",,,false,0,{},`,
        '',
      ].join('\r\n'),
    );
  });

  it('writes only the header for no users', () => {
    expect(usersToCsv([])).toBe(
      'id,primaryParty,identityProviderId,isDeactivated,annotationsCount,annotations,resourceVersion\r\n',
    );
  });
});

describe('usersToJson', () => {
  it('keeps the users exactly as the API returned them', () => {
    expect(JSON.parse(usersToJson(users))).toEqual(users);
    expect(usersToJson([])).toBe('[]\n');
  });
});

describe('usersExportFileName', () => {
  it('stamps the UTC time without colons', () => {
    const now = new Date('2025-03-01T14:03:27.123Z');
    expect(usersExportFileName('csv', now)).toBe('users-2025-03-01T14-03-27Z.csv');
    expect(usersExportFileName('json', now)).toBe('users-2025-03-01T14-03-27Z.json');
  });
});
