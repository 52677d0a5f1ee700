import { isValidIdString, USER_ID_STRING } from '@ledger-console/participant/identifiers';
import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { sessionQueries } from '@/api/session';
import { toWireRight, userMutations, userQueries } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { FormSelect } from '@/components/form/form-select';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { PARTY_RIGHT_KINDS, type Access } from '@/lib/access/access-rights';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';
import { UserSelect } from '@/pickers/user-select';
import { partyGrantCommands } from './parties-copy-as';

const grantSchema = z.object({
  userId: z
    .string()
    .trim()
    .min(1, 'Choose a user')
    .refine((id) => isValidIdString(USER_ID_STRING, id), 'Not a user id'),
  kind: z.enum(PARTY_RIGHT_KINDS),
});

type GrantValues = z.infer<typeof grantSchema>;

export type PartyGrantFormProps = {
  party: string;
  access: Access;
  /** A grant went through; the access tables should be checked again. */
  onGranted: () => void;
};

/**
 * "Grant Act as to user" from the party's page: a user picked from the caller's users (or pasted,
 * with a check that it exists), the right, and the grant (POST /v2/users/{id}/rights).
 */
export function PartyGrantForm({ party, access, onGranted }: PartyGrantFormProps) {
  // The users the caller administers: an IdP admin's own, a participant admin's default IdP's.
  const identityProviderId = access.administeredIdentityProviderId ?? '';
  const form = useForm<GrantValues>({
    resolver: zodResolver(grantSchema),
    defaultValues: { userId: '', kind: 'CanActAs' },
  });
  const options = userMutations.grantRights();
  const grant = useFormMutation(
    form,
    // The caller may be granting itself, which decides what the console offers it.
    {
      ...options,
      meta: { ...options.meta, invalidates: [userQueries.all(), sessionQueries.all()] },
    },
    { USER_NOT_FOUND: 'userId' },
  );
  const kinds = PARTY_RIGHT_KINDS.filter((kind) => access.canGrant(kind));

  const handleSubmit = form.handleSubmit((values) => {
    grant.mutate(
      {
        userId: values.userId,
        identityProviderId,
        rights: [toWireRight({ kind: values.kind, party })],
      },
      {
        onSuccess: (granted) => {
          notify.success(
            granted.length === 0
              ? `${values.userId} already had ${RIGHT_KIND_INFO[values.kind].label} for this party`
              : `${RIGHT_KIND_INFO[values.kind].label} granted to ${values.userId}`,
          );
          form.reset({ userId: '', kind: values.kind });
          onGranted();
        },
      },
    );
  });

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label="Grant access to a user"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Let a user act, read or execute as this party.
        </Text>
        <FormRootError control={form.control} error={grant.error} />
        <UserSelect
          control={form.control}
          name="userId"
          label="User"
          description="Pick one of your users, or paste a user id."
          identityProviderId={identityProviderId}
          maw={FIELD_WIDTH.medium}
        />
        <FormSelect
          control={form.control}
          name="kind"
          label="Right"
          data={kinds.map((kind) => ({ value: kind, label: RIGHT_KIND_INFO[kind].label }))}
          allowDeselect={false}
          maw={FIELD_WIDTH.short}
        />
        <FormActions
          submitLabel="Grant"
          isSubmitting={grant.isPending}
          extra={
            <CopyAsMenu
              commands={() => {
                const parsed = grantSchema.safeParse(form.getValues());
                return parsed.success
                  ? partyGrantCommands(
                      parsed.data.userId,
                      identityProviderId,
                      parsed.data.kind,
                      party,
                    )
                  : undefined;
              }}
              unavailableReason="Choose a user first: the copy is the request Grant would send."
            />
          }
        />
      </Stack>
    </form>
  );
}
