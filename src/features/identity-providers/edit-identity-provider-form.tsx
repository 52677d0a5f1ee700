import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { identityProviderMutations, type IdentityProviderConfig } from '@/api/identity-providers';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { updateIdentityProviderCopyAs } from './identity-provider-copy-as';
import { SubmissionFailureFix } from './identity-provider-failure-note';
import { IdentityProviderFields } from './identity-provider-fields';
import {
  identityProviderErrorField,
  identityProviderSettingsSchema,
  toIdentityProviderSettingsValues,
  toUpdateIdentityProviderRequest,
  type IdentityProviderSettingsValues,
} from './identity-provider-form-schema';

export type EditIdentityProviderFormProps = {
  config: IdentityProviderConfig;
  /** Back to the read-only settings: after a save (with the saved config) or on Cancel. */
  onDone: (saved?: IdentityProviderConfig) => void;
  identityProviderHref: (identityProviderId: string) => string;
};

const FIELDS = ['issuer', 'jwksUrl', 'audience'] as const;

/** Changes issuer, JWKS URL and audience; the update mask names only what was changed. */
export function EditIdentityProviderForm({
  config,
  onDone,
  identityProviderHref,
}: EditIdentityProviderFormProps) {
  // The settings the form was opened with: the mask is computed against these, not against a
  // background refetch, or another admin's change made meanwhile would be reverted.
  const [base] = useState(config);
  const form = useForm<IdentityProviderSettingsValues>({
    resolver: zodResolver(identityProviderSettingsSchema),
    defaultValues: toIdentityProviderSettingsValues(config),
  });
  const update = useFormMutation(form, identityProviderMutations.update(), {}, (error) =>
    identityProviderErrorField(error, FIELDS),
  );

  const handleSubmit = form.handleSubmit((values) => {
    const request = toUpdateIdentityProviderRequest(base, values);
    if (!request) {
      // An earlier failure must not be shown in place of this message.
      update.reset();
      form.setError('root.server', {
        type: 'server',
        message: 'Nothing to save: every setting is as it was.',
      });
      return;
    }
    update.mutate(request, {
      onSuccess: (updated) => {
        notify.success(`Identity provider ${updated.identityProviderId} updated`);
        onDone(updated);
      },
    });
  });

  // The PATCH Save would send now: the same schema and mask as the submit.
  const copyAs = () => {
    const parsed = identityProviderSettingsSchema.safeParse(form.getValues());
    const request = parsed.success ? toUpdateIdentityProviderRequest(base, parsed.data) : undefined;
    return request === undefined ? undefined : updateIdentityProviderCopyAs(request);
  };

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label="Edit identity provider"
    >
      <Stack gap="md">
        <FormRootError control={form.control} error={update.error} />
        {update.isError && (
          <SubmissionFailureFix
            error={update.error}
            facts={{
              identityProviderId: base.identityProviderId,
              issuer: update.variables.identityProviderConfig.issuer,
            }}
            identityProviderHref={identityProviderHref}
          />
        )}
        <IdentityProviderFields control={form.control} />
        <FormActions
          submitLabel="Save changes"
          isSubmitting={update.isPending}
          cancel={{
            onClick: () => {
              onDone();
            },
          }}
          extra={
            <CopyAsMenu
              commands={copyAs}
              unavailableReason="Change a setting first: the update sends only what changed, and only valid values."
            />
          }
        />
      </Stack>
    </form>
  );
}
