import { lazy, useEffect, type ReactNode } from 'react';
import { Stack, Tabs, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { userQueries, type UserRef } from '@/api/users';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionCard } from '@/components/section-card';
import { accessOf } from '@/lib/access/access-rights';
import type { AdminFixLinks } from '@/blocks/admin-fix-actions';
import { UserIdentityProviderMove } from './user-identity-provider-move';
import { UserProfileForm } from './user-profile-form';
import { UserProfileView } from './user-profile-view';
import { UserRightsPanel } from './user-rights-panel';
import { USER_TAB_LABELS, userTabOf, userTabsFor, type UserTab } from './user-tabs';

// Opened by a tab only: their code (and the access check's lookups) load when that tab first shows.
const UserAccessCheck = lazy(() =>
  import('./user-access-check').then((module) => ({ default: module.UserAccessCheck })),
);
const UserOffboarding = lazy(() =>
  import('./user-offboarding').then((module) => ({ default: module.UserOffboarding })),
);

/** The app's routes this feature links to; features cannot import the app's paths. */
export type UserDetailLinks = AdminFixLinks;

export type UserDetailProps = {
  userRef: UserRef;
  /** The tab the URL names (`?tab=`); one the caller cannot open shows the profile. */
  tab: string | null;
  onTabChange: (tab: UserTab) => void;
  links: UserDetailLinks;
  /** The Activity tab's content, which another feature provides. */
  activity: ReactNode;
  onDeleted: () => void;
  /** The user now lives in (or, for a URL without its IdP, really is in) this IdP. */
  onMoved: (identityProviderId: string) => void;
};

/**
 * One user, in tabs whose selection is in the URL: Profile, Rights, Access check, Offboard and
 * Activity. Each action has one place: the profile's edits and the IdP move on Profile, grant and
 * revoke on Rights, deactivate-revoke-delete on Offboard. What the caller may change follows its
 * rights: admins of the user edit everything they may grant; a user viewing itself only reads.
 */
export function UserDetail({
  userRef,
  tab: requestedTab,
  onTabChange,
  links,
  activity,
  onDeleted,
  onMoved,
}: UserDetailProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const { data: user } = useSuspenseQuery(userQueries.detail(userRef));
  const access = accessOf(caller);
  const canEdit = access.canManageUsers;
  const tabs = userTabsFor(canEdit);
  const tab = userTabOf(requestedTab, tabs);
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
          const chosen = tabs.find((candidate) => candidate === next);
          if (chosen !== undefined) onTabChange(chosen);
        }}
        // Only the open tab is mounted: the others' queries and code wait until they are opened.
        keepMounted={false}
      >
        <Tabs.List aria-label={`User ${user.id}`}>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {USER_TAB_LABELS[value]}
            </Tabs.Tab>
          ))}
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
            {access.isParticipantAdmin && (
              <SectionCard title="Identity provider">
                <Stack gap="xs" align="flex-start">
                  <Text size="sm" c="dimmed">
                    Only tokens of the user’s identity provider (and participant admins) can act for
                    it.
                  </Text>
                  <UserIdentityProviderMove userRef={userRef} onMoved={onMoved} />
                </Stack>
              </SectionCard>
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="rights" pt="lg">
          <UserRightsPanel userRef={userRef} access={access} canEdit={canEdit} />
        </Tabs.Panel>
        <Tabs.Panel value="access" pt="lg">
          <QueryBoundary>
            <UserAccessCheck userRef={userRef} links={links} />
          </QueryBoundary>
        </Tabs.Panel>
        {canEdit && (
          <Tabs.Panel value="offboard" pt="lg">
            <QueryBoundary>
              <UserOffboarding
                userRef={userRef}
                links={links}
                onDeleted={onDeleted}
                onMoved={onMoved}
              />
            </QueryBoundary>
          </Tabs.Panel>
        )}
        <Tabs.Panel value="activity" pt="lg">
          {activity}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
