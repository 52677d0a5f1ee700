import { TextInput, type TextInputProps } from '@mantine/core';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

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
  const { field, fieldState } = useController({ control, name });
  return (
    <TextInput
      {...props}
      {...field}
      // An unset optional field arrives as undefined; the input must stay controlled.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      value={(field.value as string | undefined) ?? ''}
      error={fieldState.error?.message}
    />
  );
}
