import type { User } from '@/api/users';

/** The columns the users table can sort by once every user is loaded. */
export type UsersSortKey = 'id' | 'primaryParty' | 'identityProviderId' | 'status' | 'annotations';
export type SortDirection = 'ascending' | 'descending';
export type UsersSort = { key: UsersSortKey; direction: SortDirection };

/** The API's own order, which a freshly loaded list is already in. */
export const DEFAULT_USERS_SORT: UsersSort = { key: 'id', direction: 'ascending' };

export function annotationsCount(user: User): number {
  return Object.keys(user.metadata?.annotations ?? {}).length;
}

/** How the console names a user's IdP: the default IdP's id is `''`. */
export function identityProviderLabel(identityProviderId: string | undefined): string {
  return identityProviderId === undefined || identityProviderId === ''
    ? 'default'
    : identityProviderId;
}

export function userStatusLabel(user: User): 'Active' | 'Deactivated' {
  return user.isDeactivated ? 'Deactivated' : 'Active';
}

function searchText(user: User): string {
  const annotations = Object.entries(user.metadata?.annotations ?? {}).flat();
  return [
    user.id,
    user.primaryParty ?? '',
    identityProviderLabel(user.identityProviderId),
    userStatusLabel(user),
    ...annotations,
  ]
    .join('\n')
    .toLowerCase();
}

/**
 * The users whose id, primary party, IdP, status or annotations contain `text`, ignoring case;
 * all of them for blank text. Words must all match, in any field, so "alice deactivated" works.
 */
export function filterUsers(users: readonly User[], text: string): readonly User[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return users;
  return users.filter((user) => {
    const haystack = searchText(user);
    return words.every((word) => haystack.includes(word));
  });
}

// Ids compare by code unit, which for the API's ASCII ids is its own byte order (§2.6).
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const sortValue: Record<UsersSortKey, (user: User) => string | number> = {
  id: (user) => user.id,
  primaryParty: (user) => user.primaryParty ?? '',
  identityProviderId: (user) => user.identityProviderId ?? '',
  status: (user) => (user.isDeactivated ? 1 : 0),
  annotations: annotationsCount,
};

/** A sorted copy; ties keep the id order, so equal rows do not jump between sorts. */
export function sortUsers(users: readonly User[], { key, direction }: UsersSort): User[] {
  const value = sortValue[key];
  const sign = direction === 'ascending' ? 1 : -1;
  return users
    .map((user) => ({ user, value: value(user) }))
    .sort((a, b) => {
      const byValue =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : compareText(String(a.value), String(b.value));
      return byValue !== 0 ? sign * byValue : compareText(a.user.id, b.user.id);
    })
    .map(({ user }) => user);
}
