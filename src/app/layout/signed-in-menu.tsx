import { Button, Menu, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';

import { readAccessToken, writeAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access-rights';
import { paths } from '@/app/paths';

/** Who is signed in, in the header, with the ways to switch user or sign out. */
export function SignedInMenu() {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const hasToken = readAccessToken() !== undefined;

  const label = (() => {
    if (caller.isPending) return '…';
    if (caller.isError) return 'Not signed in';
    if (caller.data.kind === 'unidentified') return hasToken ? 'Token without user' : 'No token';
    return caller.data.userId;
  })();
  const role =
    caller.data === undefined
      ? undefined
      : (() => {
          const access = accessOf(caller.data);
          if (caller.data.kind === 'unidentified') return 'No authentication required';
          if (access.isParticipantAdmin) return 'Participant admin';
          if (access.administeredIdentityProviderId !== undefined) {
            return `IdP admin of ${access.administeredIdentityProviderId}`;
          }
          return 'User';
        })();

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" aria-label={`Signed in: ${label}`}>
          <Text size="sm" ff="monospace" truncate maw={200}>
            {label}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {role !== undefined && <Menu.Label>{role}</Menu.Label>}
        {caller.data?.kind === 'user' && (
          <Menu.Item
            component={Link}
            to={paths.user.to(caller.data.userId, caller.data.identityProviderId)}
          >
            My user
          </Menu.Item>
        )}
        <SignInElsewhereItem />
        {hasToken && <SignOutItem />}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Reads the location only while the menu is open, so navigations do not re-render the header. */
function SignInElsewhereItem() {
  const { pathname, search } = useLocation();
  return (
    <Menu.Item component={Link} to={paths.signIn.to(`${pathname}${search}`)}>
      Sign in as someone else
    </Menu.Item>
  );
}

function SignOutItem() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <Menu.Item
      color="red"
      onClick={() => {
        writeAccessToken(undefined);
        void queryClient.resetQueries();
        void navigate(paths.signIn.to());
      }}
    >
      Sign out
    </Menu.Item>
  );
}
