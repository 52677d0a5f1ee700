import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { sessionQueries } from '@/api/session';
import { userMutations, type User } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { FormSwitch } from '@/components/form/form-switch';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { accessOf } from '@/lib/access/access-rights';
import type { AdminFixLinks } from '@/blocks/admin-fix-actions';
import { AdminFormError } from '@/blocks/admin-form-error';
import { IdentityProviderSelect } from '@/pickers/identity-provider-select';
import { PartySelect } from '@/pickers/party-select';
import { RightsEditor } from './rights-editor';
import { createUserCommands } from './users-copy-as';
import {
  createUserErrorField,
  createUserSchema,
  emptyCreateUserValues,
  MAX_USER_ID_LENGTH,
  toCreateUserRequest,
  USER_ID_SYMBOLS,
  type CreateUserValues,
} from './user-form-schema';
import { ForbiddenState } from '@/components/feedback/page-state';
import { forbiddenDetails } from '@/lib/errors/forbidden';

/** The app's routes this form links to; features cannot import the app's paths. */
export type CreateUserFormLinks = AdminFixLinks & {
  /** Where Cancel goes: the users list. */
  users: string;
};

export type CreateUserFormProps = {
  onCreated: (user: User) => void;
  links: CreateUserFormLinks;
  /**
   * Values to start from (an access request's subject and IdP); checked like typed input. An IdP
   * admin's users still go to its own IdP.
   */
  initialValues?: { userId?: string; identityProviderId?: string };
};

/** Creates a user with its profile and rights in one request (POST /v2/users). */
export function CreateUserForm({ onCreated, initialValues, links }: CreateUserFormProps) {
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
  // A refused create may be an id taken in another identity provider: a participant admin can
  // find out where, and the message then says so and offers the fix.
  const failedUser = createUser.variables?.user;

  if (!access.canManageUsers) {
    return (
      <ForbiddenState
        title="You may not create users"
        {...forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin'])}
      />
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
      <Stack gap="lg">
        <AdminFormError
          control={form.control}
          error={createUser.error}
          change={
            failedUser && {
              action: 'createUser',
              userId: failedUser.id,
              identityProviderId: failedUser.identityProviderId ?? '',
            }
          }
          caller={access}
          links={links}
        />
        <FormTextInput
          control={form.control}
          name="userId"
          label="User id"
          description={`ASCII letters, digits and ${USER_ID_SYMBOLS}; at most ${String(MAX_USER_ID_LENGTH)} characters.`}
          required
          autoComplete="off"
          spellCheck={false}
          maw={FIELD_WIDTH.medium}
        />
        <PartySelect
          control={form.control}
          name="primaryParty"
          label="Primary party"
          description="Optional: the party this user stands for in applications. Pick one hosted here, or paste any party id."
          identityProviderId={ownIdentityProviderId ?? ''}
          showCheck
          maw={FIELD_WIDTH.long}
        />
        <IdentityProviderSelect
          control={form.control}
          name="identityProviderId"
          label="Identity provider"
          maw={FIELD_WIDTH.medium}
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
          headingOrder={2}
        />
        <FormActions
          submitLabel="Create user"
          isSubmitting={createUser.isPending}
          cancel={{ to: links.users }}
          extra={
            <CopyAsMenu
              commands={() => {
                const parsed = createUserSchema.safeParse(form.getValues());
                return parsed.success ? createUserCommands(parsed.data) : undefined;
              }}
              unavailableReason="Fix the form's problems first: the copy is the request Create user would send."
            />
          }
        />
      </Stack>
    </form>
  );
}
