import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { recentItemOfLocation } from './recent-locations';

const NAMESPACE = `1220${'ab'.repeat(32)}`;
const PARTY = `alice::${NAMESPACE}`;
const PACKAGE_ID = 'c'.repeat(64);
const CONTRACT_ID = `00${'d'.repeat(64)}ca11`;
const actions = [
  { id: 'create-user', to: paths.newUser.to() },
  { id: 'page:/users', to: paths.users.to() },
];
const itemOf = (location: string) => recentItemOfLocation(location, actions);

describe('recentItemOfLocation', () => {
  it('reads the page of each kind of id back into that id', () => {
    expect(itemOf(paths.contract.to(CONTRACT_ID))).toEqual({
      kind: 'id',
      id: { kind: 'contract', contractId: CONTRACT_ID },
    });
    expect(itemOf(paths.party.to(PARTY, 'acme'))).toEqual({
      kind: 'id',
      id: { kind: 'party', party: PARTY },
    });
    expect(itemOf(paths.user.to('alice@example.com'))).toEqual({
      kind: 'id',
      id: { kind: 'user', userId: 'alice@example.com' },
    });
    expect(itemOf(paths.package.to(PACKAGE_ID))).toEqual({
      kind: 'id',
      id: { kind: 'package', packageId: PACKAGE_ID },
    });
    expect(itemOf(paths.transactions.to(NAMESPACE, 3))).toEqual({
      kind: 'id',
      id: { kind: 'update', updateId: NAMESPACE },
    });
  });

  it('reads the pages and actions of the search box by their exact location', () => {
    expect(itemOf('/users')).toEqual({ kind: 'action', actionId: 'page:/users' });
    expect(itemOf('/users/new')).toEqual({ kind: 'action', actionId: 'create-user' });
    expect(itemOf('/users?page=2')).toBeUndefined();
  });

  it('tells a route word from an id of that name', () => {
    // `/users/import` is the import page, not a user "import"; the user is at `/users/*import`.
    expect(itemOf('/users/import')).toBeUndefined();
    expect(itemOf(paths.user.to('import'))).toEqual({
      kind: 'id',
      id: { kind: 'user', userId: 'import' },
    });
    expect(itemOf('/packages/upload')).toBeUndefined();
  });

  it('makes no item of a location whose id is not one of its kind, or of another origin', () => {
    expect(itemOf('/contracts/not-a-contract-id')).toBeUndefined();
    expect(itemOf('/packages/abc')).toBeUndefined();
    expect(itemOf('/transactions')).toBeUndefined();
    expect(itemOf('/transactions?update=nonsense')).toBeUndefined();
    expect(itemOf('//evil.example/contracts/00')).toBeUndefined();
    expect(itemOf('https://evil.example/users')).toBeUndefined();
    expect(itemOf('/nowhere')).toBeUndefined();
  });
});
