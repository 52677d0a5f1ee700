import { paths } from '@/app/paths';
import type { Access } from '@/lib/access-rights';

export type NavItem = {
  label: string;
  to: string;
  /** Shown only to callers who may use the page. */
  isVisible: (access: Access) => boolean;
};

const always = () => true;

export const navItems: readonly NavItem[] = [
  { label: 'Overview', to: paths.overview.to(), isVisible: always },
  { label: 'Users', to: paths.users.to(), isVisible: (access) => access.canManageUsers },
  { label: 'Parties', to: paths.parties.to(), isVisible: (access) => access.canManageUsers },
  {
    label: 'Onboard a person',
    to: paths.onboard.to(),
    isVisible: (access) => access.canManageUsers,
  },
  { label: 'Packages', to: paths.packages.to(), isVisible: always },
  { label: 'Command composer', to: paths.composer.to(), isVisible: always },
  { label: 'Transactions', to: paths.transactions.to(), isVisible: always },
  {
    label: 'Identity providers',
    to: paths.identityProviders.to(),
    isVisible: (access) => access.canManageIdentityProviders,
  },
  {
    label: 'Activity',
    to: paths.activity.to(),
    isVisible: (access) => access.canManageUsers || access.canManageIdentityProviders,
  },
  { label: 'Token doctor', to: paths.tokenDoctor.to(), isVisible: always },
];
