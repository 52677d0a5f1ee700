import { Select, type SelectProps } from '@mantine/core';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

export type FormSelectProps<T extends FieldValues> = Omit<
  SelectProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

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
