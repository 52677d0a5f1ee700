import { Button, Menu, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { readAccessToken, readSignInProviderId, subscribeAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { useSignOut } from '@/features/session/use-sign-in';
import { describeLifetime, useTokenLifetime } from '@/features/session/use-token-lifetime';
import { accessOf } from '@/lib/access/access-rights';
import { isParticipantUnreachable } from '@/lib/errors/api-error';
import { decodeToken } from '@/lib/access/token-claims';
import { paths } from '@/app/paths';

/**
 * Who is signed in, in the header: the user, the role, through which provider and IdP, and how
 * long the token lasts; with the ways to switch user or sign out.
 */
export function SignedInMenu() {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const hasToken = useSyncExternalStore(
    subscribeAccessToken,
    () => readAccessToken() !== undefined,
  );
  const providerId = useSyncExternalStore(subscribeAccessToken, readSignInProviderId);
  const providers = useQuery({
    ...signInProviderQueries.list(),
    enabled: providerId !== undefined,
    meta: { errorDisplay: 'inline' },
  });
  const provider = providers.data?.find((candidate) => candidate.id === providerId);
  const lifetime = useTokenLifetime();

  const label = (() => {
    if (caller.isPending) return '…';
    // The participant does not answer: that says nothing about who is signed in.
    if (caller.isError && isParticipantUnreachable(caller.error)) {
      return hasToken ? (tokenSubject() ?? 'Signed in') : 'No token';
    }
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
  const identityProviderOf = (id: string) => (id === '' ? 'default IdP' : id);
  const identityProvider =
    caller.data?.kind === 'user'
      ? identityProviderOf(caller.data.identityProviderId)
      : provider && identityProviderOf(provider.identityProviderId);
  const lifetimeText = lifetime === undefined ? undefined : describeLifetime(lifetime);

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={`Signed in: ${label}`}
          h="auto"
          py={2}
        >
          <Stack gap={0} align="flex-end">
            <Text size="sm" truncate maw={{ base: 120, sm: 220 }}>
              {label}
            </Text>
            {caller.data !== undefined && role !== undefined && (
              <Text size="xs" c="dimmed" truncate maw={220} visibleFrom="sm">
                {role}
                {lifetimeText ? ` · ${lifetimeText}` : ''}
              </Text>
            )}
          </Stack>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {role !== undefined && <Menu.Label>{role}</Menu.Label>}
        {(provider ?? identityProvider) !== undefined && (
          <Menu.Label>
            {provider ? `Through ${provider.name}` : 'Token'}
            {identityProvider ? ` · ${identityProvider}` : ''}
          </Menu.Label>
        )}
        {lifetimeText !== undefined && <Menu.Label>Token {lifetimeText}</Menu.Label>}
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
  const navigate = useNavigate();
  const signOut = useSignOut(() => void navigate(paths.signIn.to()));
  return (
    <Menu.Item color="red" onClick={() => void signOut()}>
      Sign out
    </Menu.Item>
  );
}

/** Who the stored token names, for the header while the participant cannot say. */
function tokenSubject(): string | undefined {
  const token = readAccessToken();
  if (token === undefined) return undefined;
  const decoded = decodeToken(token);
  return decoded.kind === 'jwt' ? decoded.claims.subject : undefined;
}
