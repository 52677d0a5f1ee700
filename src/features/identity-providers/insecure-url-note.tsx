import { Text } from '@mantine/core';
import { useWatch, type Control, type Path } from 'react-hook-form';
import {
  insecureUrlWarning,
  type IdentityProviderSettingsValues,
} from './identity-provider-form-schema';

export type InsecureUrlNoteProps<T extends IdentityProviderSettingsValues> = {
  control: Control<T>;
  name: 'issuer' | 'jwksUrl';
};

/** Says so, under the field, while the URL typed there is plain http to another machine. */
export function InsecureUrlNote<T extends IdentityProviderSettingsValues>({
  control,
  name,
}: InsecureUrlNoteProps<T>) {
  // Both names are fields of every T (it extends the settings), which Path<T> cannot see.
  const value: unknown = useWatch({ control, name: name as Path<T> });
  const warning = insecureUrlWarning(String(value), name === 'jwksUrl' ? 'JWKS URL' : 'issuer');
  if (!warning) return null;
  return (
    <Text size="xs" mt={-8} style={{ color: 'var(--mantine-color-orange-light-color)' }}>
      {warning}
    </Text>
  );
}
