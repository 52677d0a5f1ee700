import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { identityProviderMutations, type IdentityProviderConfig } from '@/api/identity-providers';
import type { IssuerDiscovery } from '@/api/oidc-discovery';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { FormSwitch } from '@/components/form/form-switch';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { FillFromIssuer } from './fill-from-issuer';
import { createIdentityProviderCopyAs } from './identity-provider-copy-as';
import { SubmissionFailureFix } from './identity-provider-failure-note';
import { IdentityProviderFields } from './identity-provider-fields';
import {
  createIdentityProviderSchema,
  emptyCreateIdentityProviderValues,
  IDENTITY_PROVIDER_ID_SYMBOLS,
  identityProviderErrorField,
  MAX_IDENTITY_PROVIDER_ID_LENGTH,
  toIdentityProviderConfig,
  type CreateIdentityProviderValues,
} from './identity-provider-form-schema';

export type CreateIdentityProviderFormProps = {
  onCreated: (config: IdentityProviderConfig) => void;
  /** Offers "Fill from issuer" above the form: issuer and JWKS URL from discovery. */
  fillFromIssuer?: boolean;
  /** Where Cancel goes: the IdP list. */
  cancelHref: string;
  identityProviderHref: (identityProviderId: string) => string;
};

const FIELDS = ['identityProviderId', 'issuer', 'jwksUrl', 'audience'] as const;

/** Creates an IdP config (POST /v2/idps); conflicts and invalid fields show on their field. */
export function CreateIdentityProviderForm({
  onCreated,
  fillFromIssuer = false,
  cancelHref,
  identityProviderHref,
}: CreateIdentityProviderFormProps) {
  const form = useForm<CreateIdentityProviderValues>({
    resolver: zodResolver(createIdentityProviderSchema),
    defaultValues: emptyCreateIdentityProviderValues,
  });
  const create = useFormMutation(form, identityProviderMutations.create(), {}, (error) =>
    identityProviderErrorField(error, FIELDS),
  );

  const handleSubmit = form.handleSubmit((values) => {
    create.mutate(toIdentityProviderConfig(values), {
      onSuccess: (created) => {
        notify.success(`Identity provider ${created.identityProviderId} created`);
        onCreated(created);
      },
    });
  });

  const fill = (discovery: IssuerDiscovery) => {
    const options = { shouldValidate: true, shouldDirty: true };
    form.setValue('issuer', discovery.issuer, options);
    form.setValue('jwksUrl', discovery.jwksUrl, options);
  };

  // The request Create would send now, through the same schema and mapper as the submit.
  const copyAs = () => {
    const parsed = createIdentityProviderSchema.safeParse(form.getValues());
    return parsed.success
      ? createIdentityProviderCopyAs(toIdentityProviderConfig(parsed.data))
      : undefined;
  };
  const submitted = create.variables;

  return (
    <Stack gap="lg">
      {fillFromIssuer && (
        <FillFromIssuer onFilled={fill} identityProviderHref={identityProviderHref} />
      )}
      <form
        onSubmit={(event) => void handleSubmit(event)}
        noValidate
        aria-label="Create identity provider"
      >
        <Stack gap="md">
          <FormRootError control={form.control} error={create.error} />
          {create.isError && submitted !== undefined && (
            <SubmissionFailureFix
              error={create.error}
              facts={{ identityProviderId: submitted.identityProviderId, issuer: submitted.issuer }}
              identityProviderHref={identityProviderHref}
            />
          )}
          <FormTextInput
            control={form.control}
            name="identityProviderId"
            label="Identity provider id"
            description={`Letters, digits and ${IDENTITY_PROVIDER_ID_SYMBOLS}; at most ${String(MAX_IDENTITY_PROVIDER_ID_LENGTH)} characters. Cannot be changed later.`}
            required
            autoComplete="off"
            spellCheck={false}
            maw={FIELD_WIDTH.medium}
          />
          <IdentityProviderFields control={form.control} />
          <FormSwitch
            control={form.control}
            name="isDeactivated"
            label="Create deactivated"
            description="A deactivated provider's tokens are rejected until it is activated."
          />
          <FormActions
            submitLabel="Create identity provider"
            isSubmitting={create.isPending}
            cancel={{ to: cancelHref }}
            extra={
              <CopyAsMenu
                commands={copyAs}
                unavailableReason="Fill in the id, issuer and JWKS URL first."
              />
            }
          />
        </Stack>
      </form>
    </Stack>
  );
}
