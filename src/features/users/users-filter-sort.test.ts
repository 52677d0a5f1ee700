import { describe, expect, it } from 'vitest';
import type { User } from '@/api/users';
import {
  annotationsCount,
  filterUsers,
  identityProviderLabel,
  sortUsers,
  userStatusLabel,
} from './users-filter-sort';

const user = (id: string, extra: Partial<User> = {}): User => ({
  id,
  primaryParty: '',
  isDeactivated: false,
  identityProviderId: '',
  metadata: { resourceVersion: '0', annotations: {} },
  ...extra,
});

const alice = user('alice', {
  primaryParty: 'Alice::1220ab',
  metadata: { resourceVersion: '1', annotations: { team: 'ops', tier: 'gold' } },
});
const bob = user('bob', { isDeactivated: true, identityProviderId: 'acme' });
const carol = user('carol', {
  primaryParty: 'Carol::1220cd',
  metadata: { resourceVersion: '2', annotations: { team: 'dev' } },
});
const users = [alice, bob, carol];

const ids = (list: readonly User[]) => list.map((u) => u.id);

describe('users labels', () => {
  it('names the default IdP and the status', () => {
    expect(identityProviderLabel('')).toBe('default');
    expect(identityProviderLabel(undefined)).toBe('default');
    expect(identityProviderLabel('acme')).toBe('acme');
    expect(userStatusLabel(bob)).toBe('Deactivated');
    expect(userStatusLabel(alice)).toBe('Active');
  });

  it('counts annotations, zero when there is no metadata', () => {
    expect(annotationsCount(alice)).toBe(2);
    expect(annotationsCount({ id: 'x' })).toBe(0);
  });
});

describe('filterUsers', () => {
  it('returns every user for blank text', () => {
    expect(filterUsers(users, '  ')).toBe(users);
  });

  it('matches id, party, IdP, status and annotations, ignoring case', () => {
    expect(ids(filterUsers(users, 'ALI'))).toEqual(['alice']);
    expect(ids(filterUsers(users, '1220cd'))).toEqual(['carol']);
    expect(ids(filterUsers(users, 'acme'))).toEqual(['bob']);
    expect(ids(filterUsers(users, 'default'))).toEqual(['alice', 'carol']);
    expect(ids(filterUsers(users, 'deactivated'))).toEqual(['bob']);
    expect(ids(filterUsers(users, 'team'))).toEqual(['alice', 'carol']);
    expect(ids(filterUsers(users, 'gold'))).toEqual(['alice']);
  });

  it('requires every word to match', () => {
    expect(ids(filterUsers(users, 'team dev'))).toEqual(['carol']);
    expect(ids(filterUsers(users, 'alice dev'))).toEqual([]);
  });
});

describe('sortUsers', () => {
  it('sorts by each column in both directions without changing the input', () => {
    const input = [carol, alice, bob];
    expect(ids(sortUsers(input, { key: 'id', direction: 'ascending' }))).toEqual([
      'alice',
      'bob',
      'carol',
    ]);
    expect(ids(sortUsers(input, { key: 'id', direction: 'descending' }))).toEqual([
      'carol',
      'bob',
      'alice',
    ]);
    expect(ids(input)).toEqual(['carol', 'alice', 'bob']);
    expect(ids(sortUsers(input, { key: 'annotations', direction: 'descending' }))).toEqual([
      'alice',
      'carol',
      'bob',
    ]);
    expect(ids(sortUsers(input, { key: 'status', direction: 'descending' }))[0]).toBe('bob');
    expect(ids(sortUsers(input, { key: 'identityProviderId', direction: 'descending' }))[0]).toBe(
      'bob',
    );
    expect(ids(sortUsers(input, { key: 'primaryParty', direction: 'ascending' }))).toEqual([
      'bob',
      'alice',
      'carol',
    ]);
  });

  it('breaks ties by id ascending in either direction', () => {
    const dave = user('dave');
    const input = [dave, bob, alice, carol];
    expect(ids(sortUsers(input, { key: 'status', direction: 'ascending' }))).toEqual([
      'alice',
      'carol',
      'dave',
      'bob',
    ]);
    expect(ids(sortUsers(input, { key: 'status', direction: 'descending' }))).toEqual([
      'bob',
      'alice',
      'carol',
      'dave',
    ]);
  });

  it('orders ids by code unit like the API, upper case before lower case', () => {
    expect(
      ids(sortUsers([user('b'), user('B'), user('a')], { key: 'id', direction: 'ascending' })),
    ).toEqual(['B', 'a', 'b']);
  });
});
