import {
  IconAddressBook,
  IconActivityHeartbeat,
  IconArrowsExchange,
  IconCoins,
  IconFileText,
  IconHistory,
  IconLayoutDashboard,
  IconPackage,
  IconShieldLock,
  IconStethoscope,
  IconTerminal2,
  IconUserPlus,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { paths } from '@/app/paths';
import type { Access } from '@/lib/access/access-rights';

export type NavItem = {
  label: string;
  to: string;
  icon: Icon;
  /** Shown only to callers who may use the page. */
  isVisible: (access: Access) => boolean;
};

export type NavGroup = {
  /** Undefined for the group at the top, which needs no heading. */
  label: string | undefined;
  items: readonly NavItem[];
};

const always = () => true;
const managesUsers = (access: Access) => access.canManageUsers;

/** The navigation, grouped by what the user came to do (docs/design-system.md §Navigation). */
export const navGroups: readonly NavGroup[] = [
  {
    label: undefined,
    items: [
      { label: 'Overview', to: paths.overview.to(), icon: IconLayoutDashboard, isVisible: always },
    ],
  },
  {
    label: 'Access',
    items: [
      { label: 'Users', to: paths.users.to(), icon: IconUsers, isVisible: managesUsers },
      {
        label: 'Onboard a person',
        to: paths.onboard.to(),
        icon: IconUserPlus,
        isVisible: managesUsers,
      },
      { label: 'Parties', to: paths.parties.to(), icon: IconAddressBook, isVisible: managesUsers },
      {
        label: 'Identity providers',
        to: paths.identityProviders.to(),
        icon: IconShieldLock,
        isVisible: (access) => access.canManageIdentityProviders,
      },
      {
        label: 'Activity',
        to: paths.activity.to(),
        icon: IconHistory,
        // The shared audit log shows everyone their own calls at least (scoped by the server).
        isVisible: always,
      },
    ],
  },
  {
    label: 'Ledger',
    items: [
      { label: 'Packages', to: paths.packages.to(), icon: IconPackage, isVisible: always },
      {
        label: 'Command composer',
        to: paths.composer.to(),
        icon: IconTerminal2,
        isVisible: always,
      },
      {
        label: 'Active contracts',
        to: paths.contracts.to(),
        icon: IconFileText,
        isVisible: always,
      },
      { label: 'Live', to: paths.live.to(), icon: IconActivityHeartbeat, isVisible: always },
      {
        label: 'Transactions',
        to: paths.transactions.to(),
        icon: IconArrowsExchange,
        isVisible: always,
      },
      {
        label: 'Traffic',
        to: paths.traffic.to(),
        icon: IconCoins,
        isVisible: (access) => access.canReadCompletions,
      },
    ],
  },
  {
    label: 'Help',
    items: [
      {
        label: 'Token doctor',
        to: paths.tokenDoctor.to(),
        icon: IconStethoscope,
        isVisible: always,
      },
    ],
  },
];
