import { IconSearch } from '@tabler/icons-react';
import { describe, expect, it } from 'vitest';
import { recognizeId } from '@/lib/values/id-recognition';
import { matchEntries, partyEntries, seenUpdateEntries, userEntries } from './search-entries';
import {
  searchResults,
  templateKindIn,
  type SearchAction,
  type SearchContext,
  type SearchGroup,
  type SearchLinks,
} from './search-results';

const PACKAGE_ID = 'c'.repeat(64);
const OLD_PACKAGE_ID = 'd'.repeat(64);

// Links that spell out what they were given, so each target can be checked exactly.
const links: SearchLinks = {
  party: (party) => `party/${party}`,
  user: (userId, identityProviderId) => `user/${userId}@${identityProviderId}`,
  package: (packageId) => `package/${packageId}`,
  packages: () => 'packages',
  contract: (contractId) => `contract/${contractId}`,
  update: (updateId) => `update/${updateId}`,
  offset: (offset) => `offset/${String(offset)}`,
  activeContracts: (filter) =>
    'template' in filter
      ? `contracts?template=${filter.template}`
      : `contracts?interface=${filter.interface}`,
};

const action = (id: string, label: string, kind: SearchAction['kind']): SearchAction => ({
  id,
  label,
  to: `/${id}`,
  icon: IconSearch,
  kind,
  isVisible: () => true,
});

const context: SearchContext = {
  links,
  actions: [
    action('upload-dar', 'Upload DAR', 'action'),
    action('create-user', 'Create user', 'action'),
    { ...action('users', 'Users', 'page'), keywords: ['Access'] },
    action('packages', 'Packages', 'page'),
  ],
  recent: [],
  // 1.10.0 is newer than 1.9.0, which text order would not say.
  packagesByName: new Map([
    [
      'my-app',
      [
        { packageId: OLD_PACKAGE_ID, version: '1.9.0' },
        { packageId: PACKAGE_ID, version: '1.10.0' },
      ],
    ],
  ]),
  user: { status: 'unknown' },
  party: { status: 'unknown' },
  contract: { status: 'unknown' },
  template: { status: 'unknown' },
  ledgerEnd: undefined,
  identityProviderId: '',
};

const search = (input: string, overrides: Partial<SearchContext> = {}) => {
  const packageNames = [...(overrides.packagesByName ?? context.packagesByName).keys()];
  return searchResults(recognizeId(input, { packageNames }), { ...context, ...overrides });
};
const summary = (groups: SearchGroup[]) =>
  groups.map((group) => [group.label, group.items.map((item) => `${item.title} → ${item.to}`)]);

describe('searchResults', () => {
  it('lists the pages, then the actions, for empty input', () => {
    expect(summary(search(''))).toEqual([
      ['Pages', ['Users → /users', 'Packages → /packages']],
      ['Actions', ['Upload DAR → /upload-dar', 'Create user → /create-user']],
    ]);
  });

  it('finds pages and actions by every word, in any case, and by their keywords', () => {
    expect(summary(search('up DAR'))[0]).toEqual(['Actions', ['Upload DAR → /upload-dar']]);
    expect(summary(search('access'))[0]).toEqual(['Pages', ['Users → /users']]);
  });

  it('leads a template id to its package and to its active contracts', () => {
    expect(summary(search(`${PACKAGE_ID}:Main:Iou`))).toEqual([
      [
        'Go to',
        [
          `Template or interface → package/${PACKAGE_ID}`,
          `Active contracts → contracts?template=${PACKAGE_ID}:Main:Iou`,
        ],
      ],
    ]);
    // By package name: the newest version's package; a name not vetted here: the list.
    expect(summary(search('#my-app:Main:Iou'))[0]?.[1]).toEqual([
      `Template or interface → package/${PACKAGE_ID}`,
      'Active contracts → contracts?template=#my-app:Main:Iou',
    ]);
    expect(summary(search('#other:Main:Iou'))[0]?.[1]?.[0]).toBe(
      'Template or interface → packages',
    );
  });

  it('names a template or an interface once its package tells, and its contracts accordingly', () => {
    const templateId = `${PACKAGE_ID}:Main:Holding`;
    expect(summary(search(templateId, { template: { status: 'template' } }))[0]?.[1]).toEqual([
      `Template → package/${PACKAGE_ID}`,
      `Active contracts → contracts?template=${templateId}`,
    ]);
    expect(summary(search(templateId, { template: { status: 'interface' } }))[0]?.[1]).toEqual([
      `Interface → package/${PACKAGE_ID}`,
      `Active contracts → contracts?interface=${templateId}`,
    ]);
    // Not in its package: no contracts to list; its package page says what it has.
    const [missing] = search(templateId, { template: { status: 'missing' } });
    expect(missing?.items).toHaveLength(1);
    expect(missing?.items[0]?.description).toBe('Main:Holding is not found in its package');
  });

  it('tells templates from interfaces by the decoded modules', () => {
    const modules = [
      {
        name: 'Main',
        dataTypes: [],
        synonyms: [],
        templates: [{ name: 'Asset.Holding' }],
        interfaces: [{ name: 'Transferable' }],
      },
    ] as unknown as Parameters<typeof templateKindIn>[0];
    expect(templateKindIn(modules, 'Main:Asset.Holding')).toBe('template');
    expect(templateKindIn(modules, 'Main:Transferable')).toBe('interface');
    expect(templateKindIn(modules, 'Main:Other')).toBe('missing');
    expect(templateKindIn(modules, 'Other:Transferable')).toBe('missing');
  });

  it('says when an offset is beyond the ledger end', () => {
    const offsetItem = (ledgerEnd: number | undefined) =>
      search('42', { ledgerEnd })[0]?.items[0]?.description;
    expect(offsetItem(undefined)).toBe('The transaction and its events');
    expect(offsetItem(42)).toBe('The transaction and its events');
    expect(offsetItem(41)).toBe('Beyond the ledger end, 41');
  });

  it('says what the participant knows of a party', () => {
    const party = `alice::1220${'f'.repeat(64)}`;
    const itemFor = (status: 'unknown' | 'local' | 'remote' | 'missing') =>
      search(party, { party: { status } })[0]?.items[0];
    expect(itemFor('unknown')).toMatchObject({ title: 'Party', to: `party/${party}` });
    expect(itemFor('local')?.description).toBe('Hosted here');
    expect(itemFor('remote')?.description).toBe('Known here, hosted on another participant');
    expect(itemFor('missing')?.description).toBe('Not known to this participant');
  });

  it('leads a package name to its newest version', () => {
    const [goTo] = search('my-app');
    expect(goTo?.items[0]).toMatchObject({
      title: 'Package name',
      description: 'Its newest version, 1.10.0',
      to: `package/${PACKAGE_ID}`,
    });
  });

  it('puts a word that is only a user id after the pages and actions it names, unless the user exists', () => {
    expect(summary(search('users'))).toEqual([
      ['Pages', ['Users → /users']],
      ['Other matches', ['User → user/users@']],
    ]);
    const found = search('users', { user: { status: 'found', identityProviderId: 'acme' } });
    expect(summary(found)).toEqual([
      ['Go to', ['User → user/users@acme']],
      ['Pages', ['Users → /users']],
    ]);
    expect(search('users', { user: { status: 'missing' } }).at(-1)?.items[0]?.description).toBe(
      'No user with this id here',
    );
    // Not looked up: opened in the caller's own identity provider.
    expect(search('users', { identityProviderId: 'acme' }).at(-1)?.items[0]?.to).toBe(
      'user/users@acme',
    );
  });

  it('lists recent items first, without the ones the input already leads to, filtered by it', () => {
    const updateId = `1220${'e'.repeat(64)}`;
    const recent = [
      { kind: 'id' as const, id: { kind: 'update' as const, updateId } },
      { kind: 'action' as const, actionId: 'upload-dar' },
      // An action the caller may no longer use is not offered.
      { kind: 'action' as const, actionId: 'gone' },
    ];
    // Once among the recent items, an action is not listed again with the others.
    expect(summary(search('', { recent }))).toEqual([
      ['Recent', [`Update → update/${updateId}`, 'Upload DAR → /upload-dar']],
      ['Pages', ['Users → /users', 'Packages → /packages']],
      ['Actions', ['Create user → /create-user']],
    ]);
    expect(summary(search('upload', { recent })).map(([label]) => label)).toEqual([
      'Recent',
      'Other matches',
    ]);
    expect(summary(search(updateId, { recent }))).toEqual([
      ['Go to', [`Update → update/${updateId}`]],
    ]);
  });

  it('gives every item a unique key', () => {
    const keys = search('42', {
      recent: [{ kind: 'id', id: { kind: 'offset', offset: 7 } }],
    }).flatMap((group) => group.items.map((item) => item.key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('offset:42');
    expect(keys).toContain('user:42');
  });

  it('lists what the input names or begins after the pages and actions, labelled with its kind', () => {
    const updateId = `1220${'ab'.repeat(32)}`;
    const entries = [
      ...userEntries([{ id: 'bank-operator' }, { id: 'uploader' }], links),
      ...partyEntries([{ party: `bank::1220${'a'.repeat(64)}` }], links),
      ...seenUpdateEntries([{ updateId, offset: 4, where: { kind: 'scan', updates: 4 } }], links),
    ];
    const named = (input: string) => search(input, { nameMatches: matchEntries(input, entries) });
    const bank = named('bank');
    expect(bank.map((group) => group.label)).toEqual(['By name or id', 'Other matches']);
    expect(bank[0]?.items.map((item) => [item.kindLabel, item.title, item.to])).toEqual([
      ['Party', 'bank', `party/bank::1220${'a'.repeat(64)}`],
      ['User', 'bank-operator', 'user/bank-operator@'],
    ]);
    expect(bank[0]?.items[1]?.highlight).toEqual({ title: { start: 0, end: 4 } });
    // "upload" still uploads first.
    expect(summary(named('upload')).map(([label]) => label)).toEqual([
      'Actions',
      'By name or id',
      'Other matches',
    ]);
    // An id typed whole is the page to go to; its sighting is not listed again.
    expect(summary(named(updateId))).toEqual([['Go to', [`Update → update/${updateId}`]]]);
    expect(summary(named(updateId.slice(0, 12)))).toEqual([
      ['By name or id', [`Update at offset 4 → update/${updateId}`]],
      ['Other matches', [`User → user/${updateId.slice(0, 12)}@`]],
    ]);
  });
});
