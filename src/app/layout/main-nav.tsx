import { NavLink } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { NavLink as RouterNavLink } from 'react-router';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access-rights';
import { paths } from '@/app/paths';
import { navItems, type NavItem } from './nav-items';

export type MainNavProps = { onNavigate: () => void };

/** The pages the caller may use, plus its own user page when it administers nobody. */
export function MainNav({ onNavigate }: MainNavProps) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const items: NavItem[] = caller.data
    ? navItems.filter((item) => item.isVisible(accessOf(caller.data)))
    : // Signed out or refused: the overview, and the doctor that explains a refused token.
      navItems.filter(
        (item) => item.to === paths.overview.to() || item.to === paths.tokenDoctor.to(),
      );
  // A user without admin rights still has a page: its own, read-only.
  const ownUser =
    caller.data?.kind === 'user' && !accessOf(caller.data).canManageUsers
      ? paths.user.to(caller.data.userId, caller.data.identityProviderId)
      : undefined;

  return (
    <>
      {items.map((item) => (
        <NavLink
          key={item.to}
          component={RouterNavLink}
          to={item.to}
          end={item.to === paths.overview.to()}
          label={item.label}
          onClick={onNavigate}
        />
      ))}
      {ownUser !== undefined && (
        <NavLink component={RouterNavLink} to={ownUser} label="My user" onClick={onNavigate} />
      )}
      <NavLink
        component={RouterNavLink}
        to={paths.signIn.to()}
        label="Sign in"
        onClick={onNavigate}
      />
    </>
  );
}
