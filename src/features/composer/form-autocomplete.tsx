import { Autocomplete, type AutocompleteProps } from '@mantine/core';
import { useController, type Control } from 'react-hook-form';
import type { ComposerValues } from './composer-form-schema';

export type FormAutocompleteProps = Omit<
  AutocompleteProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error'
> & {
  control: Control<ComposerValues>;
  name:
    `commands.${number}.templateId` | `commands.${number}.contractId` | `commands.${number}.choice`;
};

/** Mantine Autocomplete bound to one string field of the composer form. */
export function FormAutocomplete({ control, name, ...props }: FormAutocompleteProps) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return (
    <Autocomplete
      {...props}
      ref={ref}
      name={fieldName}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      error={fieldState.error?.message}
      autoComplete="off"
      spellCheck={false}
    />
  );
}
