import { NavLink, Stack, Text } from '@mantine/core';
import {
  IconLogin2,
  IconLogout,
  IconServer2,
  IconUserCircle,
  IconSwitchHorizontal,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { use, useId, useSyncExternalStore, type ReactNode } from 'react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { readAccessToken, subscribeAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { LinkNavigationContext } from '@/components/link-navigation';
import { usePageFleet } from '@/hooks/use-page-fleet';
import { useSignOut } from '@/features/session/use-sign-in';
import { accessOf, type Access } from '@/lib/access/access-rights';
import { isParticipantUnreachable } from '@/lib/errors/api-error';
import { paths } from '@/app/paths';
import { navGroups, type NavItem } from './nav-items';

export type MainNavProps = { onNavigate: () => void };

const ICON_SIZE = 18;

/**
 * The pages the caller may use, grouped, plus its own user page when it administers nobody. A
 * participant that does not answer changes nothing here: the last known caller stays, and with
 * no answer at all every page is listed (each one waits for the participant on its own). While
 * the first answer is on its way the list is short and grows, rather than showing pages that then
 * vanish for a plain user.
 */
export function MainNav({ onNavigate }: MainNavProps) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const access: Access | undefined = caller.data === undefined ? undefined : accessOf(caller.data);
  const isWaiting = caller.isError && isParticipantUnreachable(caller.error);
  const hasToken = useSyncExternalStore(
    subscribeAccessToken,
    () => readAccessToken() !== undefined,
  );
  // Here, not in the items: signing out unmounts them before the sign-in page is opened. The
  // router object's navigation, not useNavigate, which would render the whole list again on every
  // navigation (a page flip) for a sign-out.
  const navigation = use(LinkNavigationContext);
  // A console of several participants has a page for all of them.
  const hasFleet = usePageFleet() !== undefined;
  const signOut = useSignOut(() => {
    if (navigation) navigation.navigate(paths.signIn.to());
    else window.location.assign(paths.signIn.to());
  });
  // A token the participant refused (expired, unknown issuer) signs nobody in.
  const isRefused = caller.isError && !isWaiting;
  const isVisible = (item: NavItem): boolean => {
    if (access !== undefined) return item.isVisible(access);
    // Waiting on a participant that does not answer: what the caller may use is unknown yet.
    if (isWaiting) return true;
    // Signed out or refused: the overview, and the doctor that explains a refused token.
    return item.to === paths.overview.to() || item.to === paths.tokenDoctor.to();
  };
  // A user without admin rights still has a page: its own, read-only.
  const ownUser =
    caller.data?.kind === 'user' && access?.canManageUsers === false
      ? paths.user.to(caller.data.userId, caller.data.identityProviderId)
      : undefined;

  return (
    <Stack gap="sm">
      {navGroups.map((group) => {
        const items = group.items.filter(isVisible);
        if (items.length === 0) return null;
        return (
          <NavGroupSection key={group.label ?? ''} label={group.label}>
            {items.map((item) => (
              <NavLink
                key={item.to}
                component={RouterNavLink}
                to={item.to}
                end={item.to === paths.overview.to()}
                label={item.label}
                leftSection={<item.icon size={ICON_SIZE} aria-hidden />}
                onClick={onNavigate}
              />
            ))}
            {group.label === undefined && hasFleet && (
              <NavLink
                component={RouterNavLink}
                to={paths.fleet.to()}
                label="Fleet"
                leftSection={<IconServer2 size={ICON_SIZE} aria-hidden />}
                onClick={onNavigate}
              />
            )}
            {group.label === 'Help' && (
              <>
                {ownUser !== undefined && (
                  <NavLink
                    component={RouterNavLink}
                    to={ownUser}
                    label="My user"
                    leftSection={<IconUserCircle size={ICON_SIZE} aria-hidden />}
                    onClick={onNavigate}
                  />
                )}
                {hasToken && !isRefused ? (
                  <SignedInItems onNavigate={onNavigate} onSignOut={() => void signOut()} />
                ) : (
                  <NavLink
                    component={RouterNavLink}
                    to={paths.signIn.to()}
                    label="Sign in"
                    leftSection={<IconLogin2 size={ICON_SIZE} aria-hidden />}
                    onClick={onNavigate}
                  />
                )}
              </>
            )}
          </NavGroupSection>
        );
      })}
    </Stack>
  );
}

/** Signed in: the way to someone else's sign-in, and out; the header's menu offers the same. */
function SignedInItems({
  onNavigate,
  onSignOut,
}: {
  onNavigate: () => void;
  onSignOut: () => void;
}) {
  const { pathname, search } = useLocation();
  return (
    <>
      <NavLink
        component={RouterNavLink}
        to={paths.signIn.to(`${pathname}${search}`)}
        label="Switch user"
        leftSection={<IconSwitchHorizontal size={ICON_SIZE} aria-hidden />}
        onClick={onNavigate}
      />
      <NavLink
        component="button"
        type="button"
        label="Sign out"
        leftSection={<IconLogout size={ICON_SIZE} aria-hidden />}
        onClick={() => {
          onNavigate();
          onSignOut();
        }}
      />
    </>
  );
}

function NavGroupSection({ label, children }: { label: string | undefined; children: ReactNode }) {
  const labelId = useId();
  if (label === undefined) return <div>{children}</div>;
  return (
    <div role="group" aria-labelledby={labelId}>
      <Text
        id={labelId}
        size="xs"
        fw={700}
        c="dimmed"
        tt="uppercase"
        px="sm"
        pb={4}
        style={{ letterSpacing: '0.04em' }}
      >
        {label}
      </Text>
      {children}
    </div>
  );
}
