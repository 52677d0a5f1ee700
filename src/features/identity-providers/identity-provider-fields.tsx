import type { Control, Path } from 'react-hook-form';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormTextInput } from '@/components/form/form-text-input';
import type { IdentityProviderSettingsValues } from './identity-provider-form-schema';
import { InsecureUrlNote } from './insecure-url-note';

export type IdentityProviderFieldsProps<T extends IdentityProviderSettingsValues> = {
  control: Control<T>;
};

/**
 * Issuer, JWKS URL and audience, as both the create and the edit form ask for them, each URL with
 * its plain-http note.
 */
export function IdentityProviderFields<T extends IdentityProviderSettingsValues>({
  control,
}: IdentityProviderFieldsProps<T>) {
  // The three names are fields of every T (it extends the settings), which Path<T> cannot see.
  const name = (field: keyof IdentityProviderSettingsValues) => field as Path<T>;
  return (
    <>
      <FormTextInput
        control={control}
        name={name('issuer')}
        label="Issuer"
        description="The exact iss claim of this provider's tokens; unique on the participant."
        required
        autoComplete="off"
        spellCheck={false}
        maw={FIELD_WIDTH.long}
      />
      <InsecureUrlNote control={control} name="issuer" />
      <FormTextInput
        control={control}
        name={name('jwksUrl')}
        label="JWKS URL"
        description="Where the participant fetches the keys that verify the tokens."
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="https://idp.example.com/.well-known/jwks.json"
        maw={FIELD_WIDTH.long}
      />
      <InsecureUrlNote control={control} name="jwksUrl" />
      <FormTextInput
        control={control}
        name={name('audience')}
        label="Audience"
        description="Optional: when set, tokens must carry it in their aud claim. Empty: no particular audience."
        autoComplete="off"
        spellCheck={false}
        maw={FIELD_WIDTH.long}
      />
    </>
  );
}
