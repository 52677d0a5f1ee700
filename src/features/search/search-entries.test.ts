import { describe, expect, it } from 'vitest';
import {
  declarationEntries,
  displayNameOf,
  matchEntries,
  MAX_NAME_MATCHES_PER_KIND,
  packageEntries,
  partyEntries,
  seenContractEntries,
  seenUpdateEntries,
  userEntries,
  type EntryLinks,
} from './search-entries';

const NAMESPACE = `1220${'a'.repeat(64)}`;
const ALICE = `alice::${NAMESPACE}`;
const BANK = `bank::${NAMESPACE}`;
const PACKAGE_ID = 'c'.repeat(64);
const UPDATE_ID = `1220${'3f'.repeat(32)}`;
// The same first 12 characters as UPDATE_ID.
const OLDER_UPDATE_ID = `1220${'3f'.repeat(4)}${'3e'.repeat(28)}`;
const CONTRACT_ID = `00${'4b'.repeat(33)}`;

const links: EntryLinks = {
  user: (userId, identityProviderId) => `user/${userId}@${identityProviderId}`,
  party: (party) => `party/${party}`,
  package: (packageId) => `package/${packageId}`,
  update: (updateId) => `update/${updateId}`,
  contract: (contractId) => `contract/${contractId}`,
};

const demo = [
  ...userEntries(
    [
      {
        id: 'alice.anderson',
        primaryParty: ALICE,
        metadata: { annotations: { 'display-name': 'Alice Anderson' } },
      },
      { id: 'bank-operator', primaryParty: BANK, identityProviderId: '' },
      { id: 'carol.chen', identityProviderId: 'acme-idp', isDeactivated: true },
    ],
    links,
  ),
  ...partyEntries(
    [
      { party: ALICE, isLocal: true },
      { party: BANK, isLocal: false },
    ],
    links,
  ),
  ...packageEntries([{ packageId: PACKAGE_ID, name: 'sandbox-demo', version: '1.0.0' }], links),
  ...declarationEntries(
    [
      {
        packageId: PACKAGE_ID,
        name: 'sandbox-demo',
        version: '1.0.0',
        modules: [
          {
            name: 'Demo.Iou',
            templates: [
              {
                name: 'Iou',
                choices: [{ name: 'Iou_Transfer' }, { name: 'Archive' }],
              },
            ],
            interfaces: [{ name: 'Holding', choices: [{ name: 'Holding_Transfer' }] }],
          },
        ],
      },
    ],
    links,
  ),
];

const found = (text: string) =>
  matchEntries(text, demo).map((match) => `${match.kind} ${match.title} ${match.tier}`);

describe('matchEntries over the demo', () => {
  it('finds "alice" as the party (its hint) and the user (display name), exact first', () => {
    expect(found('alice')).toEqual(['party alice exact', 'user Alice Anderson prefix']);
  });

  it('finds "bank" as the party, and the user by its id and its primary party', () => {
    expect(found('bank')).toEqual(['party bank exact', 'user bank-operator prefix']);
    const [, user] = matchEntries('bank', demo);
    expect(user?.highlight).toEqual({ title: { start: 0, end: 4 } });
    expect(user?.to).toBe('user/bank-operator@');
  });

  it('finds "Iou" as the template first, then its choice, then the interface by word start', () => {
    expect(found('Iou')).toEqual([
      'template Iou exact',
      'choice Iou_Transfer prefix',
      // In module Demo.Iou.
      'interface Holding word-prefix',
    ]);
    const [template] = matchEntries('iou', demo);
    expect(template).toMatchObject({
      value: 'Demo.Iou:Iou',
      description: 'Template in sandbox-demo 1.0.0',
      to: `package/${PACKAGE_ID}`,
    });
    expect(found('transfer')).toEqual([
      'choice Holding_Transfer word-prefix',
      'choice Iou_Transfer word-prefix',
    ]);
  });

  it('finds a package by name and by version, and a user by a word of its display name', () => {
    expect(found('sandbox')).toEqual(['package sandbox-demo prefix']);
    expect(matchEntries('1.0.0', demo)[0]).toMatchObject({
      kind: 'package',
      highlight: { aside: { start: 0, end: 5 } },
    });
    expect(found('anderson')).toEqual(['user Alice Anderson word-prefix']);
  });

  it('finds nothing in an empty or overlong input', () => {
    expect(matchEntries('', demo)).toEqual([]);
    expect(matchEntries('a'.repeat(1000), demo)).toEqual([]);
  });

  it('keeps each kind to its share of the rows', () => {
    const many = userEntries(
      Array.from({ length: 50 }, (_, index) => ({ id: `bank-${String(index).padStart(2, '0')}` })),
      links,
    );
    const matched = matchEntries('bank', [...many, ...demo]);
    expect(matched.filter((match) => match.kind === 'user')).toHaveLength(
      MAX_NAME_MATCHES_PER_KIND,
    );
    expect(matched[0]).toMatchObject({ kind: 'party', title: 'bank' });
  });
});

describe('seen ids', () => {
  const seen = [
    ...seenUpdateEntries(
      [
        { updateId: OLDER_UPDATE_ID, offset: 3, where: { kind: 'scan', updates: 12 } },
        { updateId: UPDATE_ID, offset: 9, where: { kind: 'scan', updates: 12 } },
        // Seen again in the cache: listed once, as first seen.
        { updateId: UPDATE_ID, offset: 9, where: { kind: 'session' } },
      ],
      links,
    ),
    ...seenContractEntries(
      [
        {
          contractId: CONTRACT_ID,
          templateId: `${PACKAGE_ID}:Demo.Iou:Iou`,
          offset: 9,
          where: { kind: 'session' },
        },
      ],
      links,
    ),
  ];

  it('finds updates by the start of their id, the newest first, saying where they were seen', () => {
    const matched = matchEntries(UPDATE_ID.slice(0, 12), seen);
    expect(matched.map((match) => [match.value, match.title, match.description])).toEqual([
      [UPDATE_ID, 'Update at offset 9', 'Seen in the last 12 updates'],
      [OLDER_UPDATE_ID, 'Update at offset 3', 'Seen in the last 12 updates'],
    ]);
    expect(matched[0]).toMatchObject({
      tier: 'prefix',
      highlight: { value: { start: 0, end: 12 } },
    });
    expect(matchEntries(UPDATE_ID.slice(0, 14), seen).map((match) => match.value)).toEqual([
      UPDATE_ID,
    ]);
  });

  it('finds a contract by the start of its id, named by its template, and not by the word of its title', () => {
    expect(matchEntries(CONTRACT_ID.slice(0, 10), seen)).toEqual([
      expect.objectContaining({
        kind: 'contract',
        title: 'Iou',
        description: 'Seen in this session',
        to: `contract/${CONTRACT_ID}`,
      }),
    ]);
    expect(matchEntries('Iou', seen)).toEqual([]);
    expect(matchEntries('update', seen)).toEqual([]);
  });
});

describe('displayNameOf', () => {
  it("reads the console's and other namespaces' display-name annotations, not other keys", () => {
    expect(displayNameOf({ 'ledger-console/display-name': 'Dana Lee' })).toBe('Dana Lee');
    expect(displayNameOf({ 'example.com/displayName': ' Sam ' })).toBe('Sam');
    expect(displayNameOf({ 'ledger-console.example/description': 'Trader' })).toBeUndefined();
    expect(displayNameOf({ 'display-name': '  ' })).toBeUndefined();
    expect(displayNameOf(undefined)).toBeUndefined();
  });
});
