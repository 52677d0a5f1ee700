import { Select, type SelectProps } from '@mantine/core';
import { useController, type FieldValues } from 'react-hook-form';
import type { BoundFieldProps } from './bound-field-props';

export type FormSelectProps<T extends FieldValues> = BoundFieldProps<SelectProps, T>;

/** Mantine Select bound to a string field; clearing it stores `''`, never null. */
export function FormSelect<T extends FieldValues>({ control, name, ...props }: FormSelectProps<T>) {
  const {
    field: { ref, name: fieldName, value: fieldValue, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  const value = (fieldValue as string | undefined) ?? '';
  return (
    <Select
      {...props}
      ref={ref}
      name={fieldName}
      value={value === '' ? null : value}
      onChange={(next) => {
        onChange(next ?? '');
      }}
      onBlur={onBlur}
      error={fieldState.error?.message}
    />
  );
}
