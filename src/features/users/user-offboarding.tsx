import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sessionQueries } from '@/api/session';
import {
  activationRequest,
  toUserRights,
  toWireRight,
  userMutations,
  userQueries,
  type User,
  type UserRef,
} from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { SectionCard } from '@/components/section-card';
import { accessOf, rightKey, type Caller, type UserRight } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';
import type { CopyAsCommands } from '@/lib/text/copy-as';
import { describeRight } from '@/lib/access/right-names';
import { AdminFixActions, type AdminFixLinks } from '@/blocks/admin-fix-actions';
import { canListUserRights } from './user-rights-access';
import { deleteUserCommands, rightsChangeCommands, updateUserCommands } from './users-copy-as';
import { IsolatedText } from '@/components/isolated-text';
import { buttonBusy } from '@/components/form/button-busy';

export type UserOffboardingProps = {
  userRef: UserRef;
  links: AdminFixLinks;
  onDeleted: () => void;
  /** The delete's fix moved the user to the default IdP; its address changes with it. */
  onMoved: (identityProviderId: string) => void;
};

/** How many party ids the warning names before it just counts the rest. */
const NAMED_PARTIES = 5;

/**
 * Guided offboarding: deactivate, revoke every right, delete — each its own confirmed step, in
 * the order that is reversible longest. Parties cannot be deleted, so the warning says plainly
 * that the person's parties (and what others see of their contracts) stay.
 */
export function UserOffboarding(props: UserOffboardingProps) {
  const { userRef } = props;
  // The user page's main section shows the user's loading and errors; this one waits for it.
  const { data: caller } = useQuery(sessionQueries.caller());
  const { data: user } = useQuery(userQueries.detail(userRef));
  if (caller === undefined || user === undefined) return null;
  return <Offboarding {...props} caller={caller} user={user} />;
}

type OffboardingProps = UserOffboardingProps & { caller: Caller; user: User };

function Offboarding({ caller, user, userRef, links, onDeleted, onMoved }: OffboardingProps) {
  const access = accessOf(caller);
  const rightsListable = canListUserRights(access, userRef);
  const rights = useQuery({
    ...userQueries.rights(userRef),
    enabled: access.canManageUsers && rightsListable,
    meta: { errorDisplay: 'inline' },
  });
  const deactivate = useMutation(userMutations.update());
  const revoke = useMutation(userMutations.revokeRights());
  const remove = useMutation({
    ...userMutations.delete(),
    // The deleted user's detail must not refetch (it would fail); the lists must.
    meta: { ...userMutations.delete().meta, invalidates: [userQueries.lists()] },
  });

  // Until the page moves to the user's canonical URL (UserDetail does that), show nothing.
  if (!access.canManageUsers || (user.identityProviderId ?? '') !== userRef.identityProviderId) {
    return null;
  }

  const isSelf = access.userId === user.id && caller.kind === 'user';
  const userRights = rights.data === undefined ? [] : toUserRights(rights.data);
  const revocable = userRights.filter((right) => access.canGrant(right.kind));
  const notRevocable = userRights.filter((right) => !access.canGrant(right.kind));
  const parties = partiesOf(user, userRights);
  const selfReason = isSelf ? 'You cannot offboard yourself.' : undefined;
  // The JSON API's delete takes no IdP, so for a participant admin it reaches default-IdP users only.
  const deleteNeedsMove = access.isParticipantAdmin && userRef.identityProviderId !== '';
  const deleteReason =
    selfReason ??
    (deleteNeedsMove
      ? 'The JSON API lets a participant admin delete only default-IdP users: move this user to the default IdP first.'
      : undefined);
  const revokeReason =
    selfReason ??
    (!rightsListable
      ? 'The JSON API lists rights only of default-IdP users for a participant admin: revoke them on the Rights tab after moving the user, or ask an admin of its IdP.'
      : undefined);

  const confirmDeactivate = () => {
    confirmDanger({
      title: `Deactivate user ${user.id}?`,
      body: `User ${user.id} stays, with its rights, but the participant refuses its tokens from the next request on. Reactivating it undoes this.`,
      confirmLabel: 'Deactivate user',
      color: 'blue',
      onConfirm: () => {
        deactivate.mutate(activationRequest(user, true), {
          onSuccess: () => {
            notify.success(`User ${user.id} deactivated`);
          },
        });
      },
    });
  };

  const confirmRevoke = () => {
    confirmDanger({
      title: `Revoke all rights of ${user.id}?`,
      body: (
        <Stack gap="xs">
          <Text size="sm">
            <IsolatedText isIdentifier>{user.id}</IsolatedText> loses these{' '}
            {String(revocable.length)} rights; granting them again is the only way back.
          </Text>
          <List size="sm">
            {revocable.map((right) => (
              <List.Item key={rightKey(right)} style={{ overflowWrap: 'anywhere' }}>
                {describeRight(right)}
              </List.Item>
            ))}
          </List>
        </Stack>
      ),
      confirmLabel: `Revoke ${String(revocable.length)} ${revocable.length === 1 ? 'right' : 'rights'}`,
      onConfirm: () => {
        revoke.mutate(
          {
            userId: user.id,
            identityProviderId: user.identityProviderId ?? '',
            rights: revocable.map(toWireRight),
          },
          {
            onSuccess: (revoked) => {
              notify.success(`Revoked ${String(revoked.length)} rights of ${user.id}`);
            },
          },
        );
      },
    });
  };

  const confirmDelete = () => {
    confirmDanger({
      title: `Delete user ${user.id}?`,
      body: `User ${user.id} and all its rights are deleted and its tokens stop working. Its parties stay. This cannot be undone.`,
      confirmLabel: 'Delete user',
      onConfirm: () => {
        remove.mutate(userRef, {
          onSuccess: () => {
            notify.success(`User ${user.id} deleted`);
            onDeleted();
          },
        });
      },
    });
  };

  return (
    <SectionCard title="Offboard">
      <Stack gap="md">
        <Alert color="yellow" variant="light" title="The party stays">
          <Stack gap="xs">
            <Text size="sm">
              Parties can never be deleted.{' '}
              {parties.length === 0
                ? 'This user stands for no party, so none is left behind.'
                : `${partyNames(parties)} ${parties.length === 1 ? 'stays' : 'stay'} on the participant, and ${parties.length === 1 ? 'its' : 'their'} contracts stay visible to ${parties.length === 1 ? 'its' : 'their'} other hosts and readers.`}{' '}
              Offboarding removes the person’s access, not the party.
            </Text>
            <Text size="sm">
              Afterwards the person can still sign in at their provider, but the participant answers
              403 to their token, and the console shows them the not-onboarded page.
            </Text>
          </Stack>
        </Alert>
        <Step
          number={1}
          title="Deactivate"
          description="Keeps the user and its rights, blocks sign-in. Reversible."
          done={user.isDeactivated === true}
          doneText="Done: deactivated"
        >
          <Action
            label="Deactivate"
            onClick={confirmDeactivate}
            loading={deactivate.isPending}
            reason={selfReason}
            copyLabel="Copy deactivate as…"
            commands={() => updateUserCommands(activationRequest(user, true))}
          />
        </Step>
        <Step
          number={2}
          title="Revoke all rights"
          description="So that reactivating it by mistake gives no access back."
          done={rights.isSuccess && userRights.length === 0}
          doneText="Done: no rights left"
        >
          {rights.isError ? (
            <Text size="sm" c="red">
              Could not list its rights: {describeError(rights.error).message}
            </Text>
          ) : (
            <Stack gap={4} align="flex-start">
              <Action
                label={`Revoke all ${String(revocable.length)} ${revocable.length === 1 ? 'right' : 'rights'}`}
                onClick={confirmRevoke}
                loading={revoke.isPending || (rightsListable && rights.isPending)}
                reason={revokeReason ?? (revocable.length === 0 ? 'Nothing to revoke.' : undefined)}
                copyLabel="Copy revoke all as…"
                commands={() => rightsChangeCommands('revoke', userRef, revocable)}
              />
              {notRevocable.length > 0 && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  Only a participant admin can revoke: {notRevocable.map(describeRight).join(', ')}.
                </Text>
              )}
            </Stack>
          )}
        </Step>
        <Step
          number={3}
          title="Delete"
          description="Removes the user and its rights for good; the user id can be onboarded again later."
          done={false}
          doneText=""
        >
          <Stack gap={4} align="flex-end">
            <Action
              label="Delete user"
              onClick={confirmDelete}
              loading={remove.isPending}
              reason={deleteReason}
              copyLabel="Copy delete as…"
              commands={() => deleteUserCommands(userRef)}
            />
            {deleteNeedsMove && selfReason === undefined && (
              // The fix for the delete the JSON API refuses, in place: bring the user to the default IdP.
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
          </Stack>
        </Step>
      </Stack>
    </SectionCard>
  );
}

type StepProps = {
  number: number;
  title: string;
  description: string;
  done: boolean;
  doneText: string;
  children: ReactNode;
};

function Step({ number, title, description, done, doneText, children }: StepProps) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={`Step ${String(number)}: ${title}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={3} size="h5">
            {number}. {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {done ? (
          <Badge color="gray" variant="light">
            {doneText}
          </Badge>
        ) : (
          children
        )}
      </Group>
    </Paper>
  );
}

type ActionProps = {
  label: string;
  onClick: () => void;
  loading: boolean;
  /** Why the step cannot run, shown instead of a button that would fail. */
  reason: string | undefined;
  /** Names what is copied, since each step has its own request ("Copy delete as…"). */
  copyLabel: string;
  /** The step's request, for "Copy as…". */
  commands: () => CopyAsCommands | undefined;
};

function Action({ label, onClick, loading, reason, copyLabel, commands }: ActionProps) {
  return (
    <Stack gap={4} align="flex-end">
      <Group gap="xs" justify="flex-end">
        <Button
          color="red"
          variant="light"
          onClick={onClick}
          loading={buttonBusy(loading)}
          disabled={reason !== undefined}
        >
          {label}
        </Button>
        <CopyAsMenu
          label={copyLabel}
          commands={commands}
          unavailableReason="There is nothing to send."
        />
      </Group>
      {reason !== undefined && (
        <Text size="xs" c="dimmed">
          {reason}
        </Text>
      )}
    </Stack>
  );
}

function partiesOf(user: User, rights: readonly UserRight[]): string[] {
  const parties = new Set<string>();
  if (user.primaryParty) parties.add(user.primaryParty);
  for (const right of rights) if ('party' in right) parties.add(right.party);
  return [...parties];
}

function partyNames(parties: readonly string[]): string {
  const named = parties.slice(0, NAMED_PARTIES).join(', ');
  const rest = parties.length - NAMED_PARTIES;
  return rest > 0 ? `${named} and ${String(rest)} more parties` : named;
}
