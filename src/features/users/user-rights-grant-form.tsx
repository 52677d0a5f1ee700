import { zodResolver } from '@hookform/resolvers/zod';
import { List, Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { sessionQueries } from '@/api/session';
import { toUserRights, toWireRight, userMutations, userQueries, type UserRef } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { rightKey, type Access, type UserRight } from '@/lib/access/access-rights';
import type { RightsChange } from './rights-change-report';
import { RightsEditor } from './rights-editor';
import {
  emptyRightsChangeValues,
  partyRowInCause,
  rightsChangeSchema,
  toUserRightList,
  type RightsChangeValues,
} from './rights-form-schema';
import { describeRight } from '@/lib/access/right-names';
import { rightsChangeCommands } from './users-copy-as';

export type UserRightsGrantFormProps = {
  userRef: UserRef;
  access: Access;
  /** 'revoke' serves users whose rights cannot be listed: the caller names what to revoke. */
  action?: 'grant' | 'revoke';
  onChanged: (change: RightsChange) => void;
};

/** Grants (or revokes) rights picked in the rights editor, after a confirm naming each one. */
export function UserRightsGrantForm({
  userRef,
  access,
  action = 'grant',
  onChanged,
}: UserRightsGrantFormProps) {
  const form = useForm<RightsChangeValues>({
    resolver: zodResolver(rightsChangeSchema),
    defaultValues: emptyRightsChangeValues,
  });
  const options = action === 'grant' ? userMutations.grantRights() : userMutations.revokeRights();
  const change = useFormMutation(
    form,
    // The caller may be changing its own rights, which decide what the console offers it.
    {
      ...options,
      meta: { ...options.meta, invalidates: [userQueries.all(), sessionQueries.all()] },
    },
    {},
    (error) => {
      const row = partyRowInCause(error.body.cause, form.getValues().rights);
      return row === undefined ? undefined : `rights.partyRights.${row}.party`;
    },
  );
  const isGrant = action === 'grant';

  const handleSubmit = form.handleSubmit((values) => {
    const rights = toUserRightList(values.rights);
    const count = rights.length === 1 ? 'right' : `${String(rights.length)} rights`;
    confirmDanger({
      title: isGrant
        ? `Grant ${count} to ${userRef.userId}?`
        : `Revoke ${count} from ${userRef.userId}?`,
      body: (
        <RightsList
          intro={isGrant ? 'These rights will be granted:' : 'These rights will be revoked:'}
          rights={rights}
        />
      ),
      confirmLabel: isGrant ? `Grant ${count}` : `Revoke ${count}`,
      color: isGrant ? 'blue' : 'red',
      onConfirm: () => {
        change.mutate(
          { ...userRef, rights: rights.map(toWireRight) },
          {
            onSuccess: (changed) => {
              onChanged({ action, requested: rights, changed: toUserRights(changed) });
              form.reset(emptyRightsChangeValues);
            },
          },
        );
      },
    });
  });

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={isGrant ? 'Grant rights' : 'Revoke rights'}
    >
      <Stack gap="md">
        <FormRootError control={form.control} error={change.error} />
        <RightsEditor
          control={form.control}
          name="rights"
          legend={isGrant ? 'Rights to grant' : 'Rights to revoke'}
          canGrant={access.canGrant}
          partiesOfIdentityProviderId={access.administeredIdentityProviderId ?? ''}
        />
        <FormActions
          submitLabel={isGrant ? 'Grant rights' : 'Revoke rights'}
          isSubmitting={change.isPending}
          isDanger={!isGrant}
          cancel={{
            onClick: () => {
              form.reset(emptyRightsChangeValues);
            },
            isDisabled: !form.formState.isDirty,
          }}
          extra={
            <CopyAsMenu
              label={isGrant ? 'Copy grant as…' : 'Copy revoke as…'}
              commands={() => {
                const parsed = rightsChangeSchema.safeParse(form.getValues());
                return parsed.success
                  ? rightsChangeCommands(action, userRef, toUserRightList(parsed.data.rights))
                  : undefined;
              }}
              unavailableReason={`Add a right (with a valid party) first: the copy is the request ${isGrant ? 'Grant' : 'Revoke'} rights would send.`}
            />
          }
        />
      </Stack>
    </form>
  );
}

/** The rights a confirm step is about, one per line. */
export function RightsList({ intro, rights }: { intro: string; rights: readonly UserRight[] }) {
  return (
    <Stack gap="xs">
      <Text size="sm">{intro}</Text>
      <List size="sm" spacing={2}>
        {rights.map((right) => (
          <List.Item key={rightKey(right)} style={{ overflowWrap: 'anywhere' }}>
            {describeRight(right)}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
