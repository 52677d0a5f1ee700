import { AppShell, Burger, Group, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useDisclosure } from '@mantine/hooks';
import { ColorSchemeControl } from '@/components/color-scheme-control';
import { IdentifierLinksContext, type IdentifierLinks } from '@/components/identifier-links';
import { usePageFleet } from '@/hooks/use-page-fleet';
import { paths } from '@/app/paths';
import classes from './app-layout.module.css';
import { LocationRecorder } from './came-from';
import { MainContent } from './main-content';
import { MainNav } from './main-nav';
import { NavigationProgress } from './navigation-progress';
import { ParticipantStatus } from './participant-status';
import { SearchTrigger } from './search-trigger';
import { SignedInMenu } from './signed-in-menu';

// Every identifier of these kinds, anywhere in the console, links to its page.
const IDENTIFIER_LINKS: IdentifierLinks = {
  party: paths.party.to,
  package: paths.package.to,
  contract: paths.contract.to,
  update: (updateId) => paths.transactions.to(updateId),
};

// Only a fleet has a switcher, and its popover brings floating-ui: no single participant's first
// route loads it (issue 29).
const ParticipantSwitcher = lazy(async () => ({
  default: (await import('@/features/fleet/participant-switcher')).ParticipantSwitcher,
}));

/**
 * The shell. It reads no router state itself: a navigation (a page flip) then re-renders only the
 * parts that show the location, not the header and the whole shell.
 */
export function AppLayout() {
  const [isNavOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);

  return (
    <IdentifierLinksContext value={IDENTIFIER_LINKS}>
      <AppShell
        header={{ height: 52 }}
        navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
        padding={{ base: 'sm', sm: 'lg' }}
      >
        <LocationRecorder />
        <AppShell.Header>
          {/* In the banner landmark: while a route loads it is the page's only new content. */}
          <NavigationProgress />
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            {/* On a phone with a long signed-in name, the product name gives way to the controls. */}
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <Burger
                opened={isNavOpen}
                onClick={toggleNav}
                hiddenFrom="sm"
                size="sm"
                aria-label={isNavOpen ? 'Close navigation' : 'Open navigation'}
              />
              <Text fw={700} size="md" truncate>
                Ledger Console
              </Text>
              <FleetSwitcher />
            </Group>
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flexShrink: 0 }}>
              <SearchTrigger />
              <ParticipantStatus />
              <SignedInMenu />
              <ColorSchemeControl />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar
          p="xs"
          aria-label="Main"
          className={classes.navbar}
          {...(isNavOpen ? {} : { 'data-closed': true })}
        >
          <AppShell.Section grow className={classes.navScroll}>
            <MainNav onNavigate={closeNav} />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main>
          <MainContent />
        </AppShell.Main>
      </AppShell>
    </IdentifierLinksContext>
  );
}

function FleetSwitcher() {
  if (!usePageFleet()) return null;
  return (
    <Suspense fallback={null}>
      <ParticipantSwitcher fleetPath={paths.fleet.to()} />
    </Suspense>
  );
}
