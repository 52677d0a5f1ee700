import { AppShell, Burger, Group, NavLink, Progress, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { ColorSchemeControl } from '@/components/color-scheme-control';
import { navItems } from './nav-items';

export function AppLayout() {
  const [isNavOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const navigation = useNavigation();
  const { pathname } = useLocation();

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
            <Text fw={700} size="lg">
              Ledger Console
            </Text>
          </Group>
          <ColorSchemeControl />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {navItems.map((item) => (
          <NavLink
            key={item.to}
            component={RouterNavLink}
            to={item.to}
            end
            active={pathname === item.to}
            label={item.label}
            onClick={closeNav}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
