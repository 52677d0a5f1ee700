import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { userMutations, type User } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { RightName } from '@/components/right-name';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import type { AdminFixLinks } from '@/blocks/admin-fix-actions';
import { AdminFormError } from '@/blocks/admin-form-error';
import { firstAdminRequest, firstAdminSchema, type FirstAdminValues } from './delegation';
import { firstIdentityProviderAdminCopyAs } from './identity-provider-copy-as';

/** Only a participant admin creates an IdP's first admin. */
const PARTICIPANT_ADMIN = { isParticipantAdmin: true, administeredIdentityProviderId: undefined };
/** Moving the user here is not offered: the first admin is a new user with its own right. */
const OFFERS = ['openUser'] as const;

export type FirstIdentityProviderAdminFormProps = {
  identityProviderId: string;
  issuer: string;
  onCreated: (user: User) => void;
  links: AdminFixLinks;
};

/**
 * Creates the new IdP's first admin: a user of that IdP, with IdentityProviderAdmin only, whose id
 * is the person's subject at the provider, so the provider's token names it.
 */
export function FirstIdentityProviderAdminForm({
  identityProviderId,
  issuer,
  onCreated,
  links,
}: FirstIdentityProviderAdminFormProps) {
  const form = useForm<FirstAdminValues>({
    resolver: zodResolver(firstAdminSchema),
    defaultValues: { userId: '' },
  });
  const create = useFormMutation(form, userMutations.create(), {
    USER_ALREADY_EXISTS: 'userId',
    INVALID_ARGUMENT: 'userId',
  });

  // User ids are unique on the participant: the id may be taken in another identity provider
  // (a redacted refusal). The caller, a participant admin, can find out which, and open it there.
  const failedUserId = create.variables?.user.id;

  const handleSubmit = form.handleSubmit((values) => {
    create.mutate(firstAdminRequest(identityProviderId, values), {
      onSuccess: (user) => {
        notify.success(`IdP admin ${user.id} created in ${identityProviderId}`);
        onCreated(user);
      },
    });
  });

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label="Create first IdP admin"
    >
      <Stack gap="sm">
        <Text size="sm">
          The person who will onboard this provider’s users. They get the right{' '}
          <RightName kind="IdentityProviderAdmin" /> in <strong>{identityProviderId}</strong>, and
          nothing else.
        </Text>
        <AdminFormError
          control={form.control}
          error={create.error}
          change={
            failedUserId === undefined
              ? undefined
              : { action: 'createUser', userId: failedUserId, identityProviderId }
          }
          caller={PARTICIPANT_ADMIN}
          links={links}
          offers={OFFERS}
        />
        <FormTextInput
          control={form.control}
          name="userId"
          label="User id"
          description={`That person’s subject (sub) at ${issuer}: the participant finds the user by it.`}
          required
          autoComplete="off"
          spellCheck={false}
          maw={FIELD_WIDTH.medium}
        />
        <FormActions
          submitLabel="Create IdP admin"
          isSubmitting={create.isPending}
          extra={
            <CopyAsMenu
              commands={() => {
                // The same schema and request as the submit.
                const parsed = firstAdminSchema.safeParse(form.getValues());
                return parsed.success
                  ? firstIdentityProviderAdminCopyAs(
                      firstAdminRequest(identityProviderId, parsed.data),
                    )
                  : undefined;
              }}
              unavailableReason="Enter a valid user id first."
            />
          }
        />
      </Stack>
    </form>
  );
}
