import { Anchor, List, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { MAX_USERS_PAGE_SIZE, userQueries } from '@/api/users';
import { accessOf } from '@/lib/access/access-rights';
import { formatCount } from '@/lib/text/format';
import { FindIdentityProviderUser } from './find-identity-provider-user';

export type IdentityProviderUsersProps = {
  identityProviderId: string;
  userHref: (userId: string, identityProviderId: string) => string;
};

/**
 * The users of an IdP, as far as the caller can see them: `GET /v2/users` has no IdP parameter
 * and lists an IdP's users only to that IdP's own admins (§2.6, §4.5); anyone else can only look a
 * user up by id.
 */
export function IdentityProviderUsers({
  identityProviderId,
  userHref,
}: IdentityProviderUsersProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  if (accessOf(caller).administeredIdentityProviderId === identityProviderId) {
    return <OwnIdentityProviderUsers identityProviderId={identityProviderId} userHref={userHref} />;
  }
  return (
    <>
      <Text size="sm" mb="sm">
        The JSON API lists an identity provider&apos;s users only to that provider&apos;s own
        admins, so they cannot be listed or counted here. A user whose id you know can be found:
      </Text>
      <FindIdentityProviderUser identityProviderId={identityProviderId} userHref={userHref} />
    </>
  );
}

function OwnIdentityProviderUsers({ identityProviderId, userHref }: IdentityProviderUsersProps) {
  // The participant fills in the caller's own IdP for an IdP admin.
  const { data } = useSuspenseQuery(
    userQueries.list({ pageSize: MAX_USERS_PAGE_SIZE, pageToken: '' }),
  );
  const users = data.users ?? [];
  const more = data.nextPageToken ? ' More may follow; the users list pages through all.' : '';
  return (
    <>
      <Text size="sm" mb="xs">
        {formatCount(users.length, 'user', 'users')} of this identity provider.{more}
      </Text>
      <List size="sm" spacing={4} listStyleType="none" aria-label="Users of this identity provider">
        {users.map((user) => (
          <List.Item key={user.id}>
            <Anchor component={Link} to={userHref(user.id, identityProviderId)} size="sm">
              {user.id}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </>
  );
}
