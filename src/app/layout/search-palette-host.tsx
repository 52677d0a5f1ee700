import {
  IconAddressBook,
  IconFileUpload,
  IconShieldLock,
  IconUserPlus,
  IconUsersPlus,
} from '@tabler/icons-react';
import {
  SearchPalette,
  type SearchAction,
  type SearchLinks,
} from '@/features/search/search-palette';
import type { Access } from '@/lib/access/access-rights';
import { paths } from '@/app/paths';
import { navGroups } from './nav-items';
import { recentItemOfLocation } from './recent-locations';

/**
 * The search box with the app's links and actions. Loaded on the first Ctrl/Cmd+K or click of
 * the header's trigger, never with the first route (search-trigger.tsx).
 */

const links: SearchLinks = {
  party: (party) => paths.party.to(party),
  user: (userId, identityProviderId) => paths.user.to(userId, identityProviderId),
  package: (packageId) => paths.package.to(packageId),
  packages: () => paths.packages.to(),
  contract: (contractId) => paths.contract.to(contractId),
  update: (updateId) => paths.transactions.to(updateId),
  offset: (offset) => paths.transactions.atOffset(offset),
  activeContracts: (filter) => paths.contracts.to(filter),
};

const managesUsers = (access: Access) => access.canManageUsers;

/** Every page of the navigation, then what the console's create pages do. */
const actions: readonly SearchAction[] = [
  ...navGroups.flatMap((group) =>
    group.items.map((item): SearchAction => ({
      id: `page:${item.to}`,
      label: item.label,
      to: item.to,
      icon: item.icon,
      kind: 'page',
      isVisible: item.isVisible,
      ...(group.label ? { keywords: [group.label] } : {}),
    })),
  ),
  {
    id: 'create-user',
    label: 'Create user',
    to: paths.newUser.to(),
    icon: IconUserPlus,
    kind: 'action',
    isVisible: managesUsers,
    keywords: ['new', 'add'],
  },
  {
    id: 'import-users',
    label: 'Import users',
    to: paths.usersImport.to(),
    icon: IconUsersPlus,
    kind: 'action',
    isVisible: managesUsers,
    keywords: ['bulk', 'csv', 'onboard'],
  },
  {
    id: 'allocate-party',
    label: 'Allocate party',
    to: paths.newParty.to(),
    icon: IconAddressBook,
    kind: 'action',
    isVisible: managesUsers,
    keywords: ['new', 'create', 'add'],
  },
  {
    id: 'create-identity-provider',
    label: 'Create identity provider',
    to: paths.newIdentityProvider.to(),
    icon: IconShieldLock,
    kind: 'action',
    isVisible: (access) => access.canManageIdentityProviders,
    keywords: ['new', 'add', 'idp'],
  },
  {
    id: 'upload-dar',
    label: 'Upload DAR',
    to: paths.uploadDar.to(),
    icon: IconFileUpload,
    kind: 'action',
    isVisible: (access) => access.isParticipantAdmin,
    keywords: ['package', 'add'],
  },
];

const recentItemOf = (location: string) => recentItemOfLocation(location, actions);

export type SearchPaletteHostProps = { opened: boolean; onClose: () => void };

export function SearchPaletteHost({ opened, onClose }: SearchPaletteHostProps) {
  return (
    <SearchPalette
      opened={opened}
      onClose={onClose}
      links={links}
      actions={actions}
      recentItemOf={recentItemOf}
      signIn={paths.signIn.to}
    />
  );
}
