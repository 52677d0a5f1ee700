import { TextInput, type TextInputProps } from '@mantine/core';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { useStringField } from './use-string-field';

export type FormTextInputProps<T extends FieldValues> = Omit<
  TextInputProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

/** Mantine TextInput bound to one react-hook-form field; shows that field's message. */
export function FormTextInput<T extends FieldValues>({
  control,
  name,
  ...props
}: FormTextInputProps<T>) {
  return <TextInput {...props} {...useStringField(control, name)} />;
}
