import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { identityProviderMutations, type IdentityProviderConfig } from '@/api/identity-providers';
import type { IssuerDiscovery } from '@/api/oidc-discovery';
import { notify } from '@/components/feedback/notify';
import { FormRootError } from '@/components/form/form-root-error';
import { FormSwitch } from '@/components/form/form-switch';
import { FormTextInput } from '@/components/form/form-text-input';
import { InsecureUrlNote } from './insecure-url-note';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { FillFromIssuer } from './fill-from-issuer';
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
};

const FIELDS = ['identityProviderId', 'issuer', 'jwksUrl', 'audience'] as const;

/** Creates an IdP config (POST /v2/idps); conflicts and invalid fields show on their field. */
export function CreateIdentityProviderForm({
  onCreated,
  fillFromIssuer = false,
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

  return (
    <Stack gap="lg">
      {fillFromIssuer && <FillFromIssuer onFilled={fill} />}
      <form
        onSubmit={(event) => void handleSubmit(event)}
        noValidate
        aria-label="Create identity provider"
      >
        <Stack gap="md" maw={640}>
          <FormRootError control={form.control} error={create.error} />
          <FormTextInput
            control={form.control}
            name="identityProviderId"
            label="Identity provider id"
            description={`Letters, digits and ${IDENTITY_PROVIDER_ID_SYMBOLS}; at most ${String(MAX_IDENTITY_PROVIDER_ID_LENGTH)} characters. Cannot be changed later.`}
            required
            autoComplete="off"
            spellCheck={false}
          />
          <FormTextInput
            control={form.control}
            name="issuer"
            label="Issuer"
            description="The exact `iss` claim of this provider's tokens; unique on the participant."
            required
            autoComplete="off"
            spellCheck={false}
          />
          <InsecureUrlNote control={form.control} name="issuer" />
          <FormTextInput
            control={form.control}
            name="jwksUrl"
            label="JWKS URL"
            description="Where the participant fetches the keys that verify the tokens."
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="https://idp.example.com/.well-known/jwks.json"
          />
          <InsecureUrlNote control={form.control} name="jwksUrl" />
          <FormTextInput
            control={form.control}
            name="audience"
            label="Audience"
            description="Optional: when set, tokens must carry it in `aud`."
            autoComplete="off"
            spellCheck={false}
          />
          <FormSwitch
            control={form.control}
            name="isDeactivated"
            label="Create deactivated"
            description="A deactivated provider's tokens are rejected until it is activated."
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create identity provider
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
