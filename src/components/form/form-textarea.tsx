import { Textarea, type TextareaProps } from '@mantine/core';
import { useController, type FieldValues } from 'react-hook-form';
import type { BoundFieldProps } from './bound-field-props';

export type FormTextareaProps<T extends FieldValues> = BoundFieldProps<TextareaProps, T>;

/** Mantine Textarea bound to one string field; shows that field's message. */
export function FormTextarea<T extends FieldValues>({
  control,
  name,
  ...props
}: FormTextareaProps<T>) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return (
    <Textarea
      {...props}
      ref={ref}
      name={fieldName}
      // An unset optional field arrives as undefined; the input must stay controlled.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      value={(value as string | undefined) ?? ''}
      onChange={(event) => {
        onChange(event.currentTarget.value);
      }}
      onBlur={onBlur}
      error={fieldState.error?.message}
    />
  );
}
