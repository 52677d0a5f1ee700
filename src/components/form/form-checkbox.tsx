import { Checkbox, type CheckboxProps } from '@mantine/core';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

export type FormCheckboxProps<T extends FieldValues> = Omit<
  CheckboxProps,
  'name' | 'checked' | 'defaultChecked' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

/** Mantine Checkbox bound to a boolean field. */
export function FormCheckbox<T extends FieldValues>({
  control,
  name,
  ...props
}: FormCheckboxProps<T>) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return (
    <Checkbox
      {...props}
      ref={ref}
      name={fieldName}
      checked={Boolean(value)}
      onChange={(event) => {
        onChange(event.currentTarget.checked);
      }}
      onBlur={onBlur}
      error={fieldState.error?.message}
    />
  );
}
