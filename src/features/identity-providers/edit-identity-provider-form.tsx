import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { identityProviderMutations, type IdentityProviderConfig } from '@/api/identity-providers';
import { notify } from '@/components/feedback/notify';
import { FormRootError } from '@/components/form/form-root-error';
import { FormTextInput } from '@/components/form/form-text-input';
import { InsecureUrlNote } from './insecure-url-note';
import { useFormMutation } from '@/components/form/use-form-mutation';
import {
  identityProviderErrorField,
  identityProviderSettingsSchema,
  toIdentityProviderSettingsValues,
  toUpdateIdentityProviderRequest,
  type IdentityProviderSettingsValues,
} from './identity-provider-form-schema';

export type EditIdentityProviderFormProps = { config: IdentityProviderConfig };

const FIELDS = ['issuer', 'jwksUrl', 'audience'] as const;

/** Changes issuer, JWKS URL and audience; the update mask names only what was changed. */
export function EditIdentityProviderForm({ config }: EditIdentityProviderFormProps) {
  // The settings the form was opened (or last saved) with: the mask is computed against these, not
  // against a background refetch, or another admin's change made meanwhile would be reverted.
  const [base, setBase] = useState(config);
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
        setBase(updated);
        form.reset(toIdentityProviderSettingsValues(updated));
      },
    });
  });

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label="Edit identity provider"
    >
      <Stack gap="md" maw={640}>
        <FormRootError control={form.control} error={update.error} />
        <FormTextInput
          control={form.control}
          name="issuer"
          label="Issuer"
          required
          autoComplete="off"
          spellCheck={false}
        />
        <InsecureUrlNote control={form.control} name="issuer" />
        <FormTextInput
          control={form.control}
          name="jwksUrl"
          label="JWKS URL"
          required
          autoComplete="off"
          spellCheck={false}
        />
        <InsecureUrlNote control={form.control} name="jwksUrl" />
        <FormTextInput
          control={form.control}
          name="audience"
          label="Audience"
          description="Empty: tokens need no particular audience."
          autoComplete="off"
          spellCheck={false}
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
