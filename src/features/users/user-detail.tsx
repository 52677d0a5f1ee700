import { useEffect } from 'react';
import { Group, Stack, Tabs, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { userQueries, type UserRef } from '@/api/users';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access/access-rights';
import { AdminFixActions, type AdminFixLinks } from '@/blocks/admin-fix-actions';
import { UserDeleteButton } from './user-delete-button';
import { UserIdentityProviderMove } from './user-identity-provider-move';
import { UserProfileForm } from './user-profile-form';
import { UserProfileView } from './user-profile-view';
import { UserRightsPanel } from './user-rights-panel';
import type { UserTab } from './user-tabs';

/** The app's routes this feature links to; features cannot import the app's paths. */
export type UserDetailLinks = AdminFixLinks;

export type UserDetailProps = {
  userRef: UserRef;
  /** The open tab, from the URL. */
  tab: UserTab;
  onTabChange: (tab: UserTab) => void;
  links: UserDetailLinks;
  onDeleted: () => void;
  /** The user now lives in (or, for a URL without its IdP, really is in) this IdP. */
  onMoved: (identityProviderId: string) => void;
};

/**
 * One user: status, then its profile and its rights in tabs. What the caller may change follows
 * its rights: admins of the user edit everything they may grant; a user viewing itself only reads.
 */
export function UserDetail({
  userRef,
  tab,
  onTabChange,
  links,
  onDeleted,
  onMoved,
}: UserDetailProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const { data: user } = useSuspenseQuery(userQueries.detail(userRef));
  const access = accessOf(caller);
  const canEdit = access.canManageUsers;
  // An IdP admin's own IdP is implied when the URL names none (ledger-api-behaviour.md §4.5):
  // the user loads, but every decision below needs its real IdP, so move to its canonical URL.
  const actualIdentityProviderId = user.identityProviderId ?? '';
  const isCanonical = actualIdentityProviderId === userRef.identityProviderId;
  useEffect(() => {
    if (!isCanonical) onMoved(actualIdentityProviderId);
  }, [isCanonical, actualIdentityProviderId, onMoved]);
  const isSelf =
    caller.kind === 'user' &&
    caller.userId === user.id &&
    caller.identityProviderId === userRef.identityProviderId;
  const cannotDeleteReason = isSelf
    ? 'You cannot delete yourself.'
    : access.isParticipantAdmin && userRef.identityProviderId !== ''
      ? 'The JSON API lets a participant admin delete only default-IdP users: move this user to the default IdP first.'
      : undefined;

  if (!isCanonical) return null;

  return (
    <Stack gap="lg">
      {!canEdit && (
        <Text size="sm" c="dimmed">
          Read-only: changing users needs the Participant admin or Identity provider admin right.
        </Text>
      )}
      <Tabs
        value={tab}
        onChange={(next) => {
          if (next === 'profile' || next === 'rights') onTabChange(next);
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="rights">Rights</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile" pt="lg">
          <Stack gap="lg">
            {canEdit ? (
              <UserProfileForm
                user={user}
                partiesOfIdentityProviderId={access.administeredIdentityProviderId ?? ''}
                {...(isSelf ? { cannotDeactivateReason: 'You cannot deactivate yourself.' } : {})}
              />
            ) : (
              <UserProfileView user={user} />
            )}
            {canEdit && (
              <SectionCard title="Manage user">
                <Group align="flex-start">
                  {access.isParticipantAdmin && (
                    <UserIdentityProviderMove userRef={userRef} onMoved={onMoved} />
                  )}
                  <UserDeleteButton
                    userRef={userRef}
                    onDeleted={onDeleted}
                    {...(cannotDeleteReason === undefined ? {} : { cannotDeleteReason })}
                  />
                </Group>
                {access.isParticipantAdmin && !isSelf && userRef.identityProviderId !== '' && (
                  // The fix for the delete the JSON API refuses: bring the user to the default IdP.
                  <AdminFixActions
                    fixes={[
                      {
                        kind: 'moveUser',
                        userId: userRef.userId,
                        from: userRef.identityProviderId,
                        to: '',
                      },
                    ]}
                    links={links}
                    onApplied={() => {
                      onMoved('');
                    }}
                  />
                )}
              </SectionCard>
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="rights" pt="lg">
          <UserRightsPanel userRef={userRef} access={access} canEdit={canEdit} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
