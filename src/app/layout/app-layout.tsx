import { AppShell, Burger, Button, Group, NavLink, Progress, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, NavLink as RouterNavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { sessionQueries } from '@/api/session';
import { ColorSchemeControl } from '@/components/color-scheme-control';
import { AuthRecoveryContext } from '@/components/feedback/auth-recovery-context';
import { ApiError } from '@/lib/api-error';
import { accessOf } from '@/lib/access-rights';
import { paths } from '@/app/paths';
import { navItems, type NavItem } from './nav-items';
import { ParticipantStatus } from './participant-status';
import { explainAuthStatus } from './explain-auth-status';
import { SignInRequired } from './sign-in-required';
import { SignedInMenu } from './signed-in-menu';

export function AppLayout() {
  const [isNavOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const navigation = useNavigation();
  const { pathname, search } = useLocation();
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const isSignInPage = pathname === paths.signIn.pattern;
  const isRefused =
    caller.error instanceof ApiError &&
    (caller.error.status === 401 || caller.error.status === 403);

  const items: NavItem[] = caller.data
    ? navItems.filter((item) => item.isVisible(accessOf(caller.data)))
    : navItems.filter((item) => item.to === paths.overview.to());
  // A user without admin rights still has a page: its own, read-only.
  const ownUser =
    caller.data?.kind === 'user' && !accessOf(caller.data).canManageUsers
      ? paths.user.to(caller.data.userId, caller.data.identityProviderId)
      : undefined;

  const renderAuthRecovery = (status: number) => (
    <Group gap="sm">
      <Text size="sm">{explainAuthStatus(status)}</Text>
      <Button
        component={Link}
        to={paths.signIn.to(`${pathname}${search}`)}
        size="xs"
        variant="light"
      >
        Sign in again
      </Button>
    </Group>
  );

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
      padding="lg"
    >
      {navigation.state !== 'idle' && (
        <Progress
          value={100}
          animated
          size="xs"
          radius={0}
          pos="fixed"
          top={0}
          left={0}
          right={0}
          style={{ zIndex: 1000 }}
          aria-label="Loading page"
        />
      )}
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={isNavOpen}
              onClick={toggleNav}
              hiddenFrom="sm"
              size="sm"
              aria-label={isNavOpen ? 'Close navigation' : 'Open navigation'}
            />
            <Text fw={700} size="lg" style={{ whiteSpace: 'nowrap' }}>
              Ledger Console
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ParticipantStatus />
            <SignedInMenu />
            <ColorSchemeControl />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={RouterNavLink}
            to={item.to}
            end={item.to === paths.overview.to()}
            label={item.label}
            onClick={closeNav}
          />
        ))}
        {ownUser !== undefined && (
          <NavLink component={RouterNavLink} to={ownUser} label="My user" onClick={closeNav} />
        )}
        <NavLink
          component={RouterNavLink}
          to={paths.signIn.to()}
          label="Sign in"
          onClick={closeNav}
        />
      </AppShell.Navbar>
      <AppShell.Main>
        <AuthRecoveryContext value={renderAuthRecovery}>
          {isRefused && !isSignInPage ? <SignInRequired error={caller.error} /> : <Outlet />}
        </AuthRecoveryContext>
      </AppShell.Main>
    </AppShell>
  );
}
