import { TextInput, type TextInputProps } from '@mantine/core';
import type { FieldValues } from 'react-hook-form';
import type { BoundFieldProps } from './bound-field-props';
import { useStringField } from './use-string-field';

export type FormTextInputProps<T extends FieldValues> = BoundFieldProps<TextInputProps, T>;

/** Mantine TextInput bound to one react-hook-form field; shows that field's message. */
export function FormTextInput<T extends FieldValues>({
  control,
  name,
  ...props
}: FormTextInputProps<T>) {
  return <TextInput {...props} {...useStringField(control, name)} />;
}
