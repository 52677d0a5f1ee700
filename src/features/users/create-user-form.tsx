import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { sessionQueries } from '@/api/session';
import { userMutations, type User } from '@/api/users';
import { notify } from '@/components/feedback/notify';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { FormRootError } from '@/components/form/form-root-error';
import { FormSwitch } from '@/components/form/form-switch';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { accessOf } from '@/lib/access-rights';
import { IdentityProviderSelect } from '@/pickers/identity-provider-select';
import { PartySelect } from '@/pickers/party-select';
import { RightsEditor } from './rights-editor';
import {
  createUserErrorField,
  createUserSchema,
  emptyCreateUserValues,
  MAX_USER_ID_LENGTH,
  toCreateUserRequest,
  USER_ID_SYMBOLS,
  type CreateUserValues,
} from './user-form-schema';

export type CreateUserFormProps = {
  onCreated: (user: User) => void;
  /**
   * Values to start from (an access request's subject and IdP); checked like typed input. An IdP
   * admin's users still go to its own IdP.
   */
  initialValues?: { userId?: string; identityProviderId?: string };
};

/** Creates a user with its profile and rights in one request (POST /v2/users). */
export function CreateUserForm({ onCreated, initialValues }: CreateUserFormProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const ownIdentityProviderId = access.administeredIdentityProviderId;
  const form = useForm<CreateUserValues>({
    resolver: zodResolver(createUserSchema),
    defaultValues: {
      ...emptyCreateUserValues(ownIdentityProviderId ?? initialValues?.identityProviderId ?? ''),
      userId: initialValues?.userId ?? '',
    },
    // A prefilled id shows its problem at once, not only after the first submit.
    ...(initialValues?.userId ? { mode: 'onTouched' as const } : {}),
  });
  const createUser = useFormMutation(form, userMutations.create(), {}, (error) =>
    createUserErrorField(error, form.getValues()),
  );

  if (!access.canManageUsers) {
    return (
      <Alert color="yellow" title="You cannot create users">
        Creating users needs the ParticipantAdmin or IdentityProviderAdmin right, and you have
        neither.
      </Alert>
    );
  }

  const handleSubmit = form.handleSubmit((values) => {
    createUser.mutate(toCreateUserRequest(values), {
      onSuccess: (user) => {
        notify.success(`User ${user.id} created`);
        onCreated(user);
      },
    });
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Create user">
      <Stack gap="lg" maw={760}>
        <FormRootError control={form.control} error={createUser.error} />
        <FormTextInput
          control={form.control}
          name="userId"
          label="User id"
          description={`ASCII letters, digits and ${USER_ID_SYMBOLS}; at most ${String(MAX_USER_ID_LENGTH)} characters.`}
          required
          autoComplete="off"
          spellCheck={false}
        />
        <PartySelect
          control={form.control}
          name="primaryParty"
          label="Primary party"
          description="Optional: the party this user stands for in applications."
          identityProviderId={ownIdentityProviderId ?? ''}
        />
        <IdentityProviderSelect
          control={form.control}
          name="identityProviderId"
          label="Identity provider"
        />
        <FormSwitch
          control={form.control}
          name="isDeactivated"
          label="Deactivated"
          // Mantine 9 puts the description inside the switch's <label>; name it by its label only.
          aria-label="Deactivated"
          description="A deactivated user's tokens are refused until it is activated again."
        />
        <FormAnnotationsInput
          control={form.control}
          name="annotations"
          description="Key/value metadata. Keys: an optional DNS prefix and '/', then a name."
        />
        <RightsEditor
          control={form.control}
          name="rights"
          legend="Rights"
          canGrant={access.canGrant}
          partiesOfIdentityProviderId={ownIdentityProviderId ?? ''}
        />
        <Group>
          <Button type="submit" loading={createUser.isPending}>
            Create user
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
