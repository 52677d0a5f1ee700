import { Switch, type SwitchProps } from '@mantine/core';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

export type FormSwitchProps<T extends FieldValues> = Omit<
  SwitchProps,
  'name' | 'checked' | 'defaultChecked' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

/** Mantine Switch bound to a boolean field. */
export function FormSwitch<T extends FieldValues>({ control, name, ...props }: FormSwitchProps<T>) {
  const {
    field: { ref, name: fieldName, value: fieldValue, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return (
    <Switch
      // Mantine 9 renders the description inside the <label>; name the switch by its label alone.
      aria-label={typeof props.label === 'string' ? props.label : undefined}
      {...props}
      ref={ref}
      name={fieldName}
      checked={Boolean(fieldValue)}
      onChange={(event) => {
        onChange(event.currentTarget.checked);
      }}
      onBlur={onBlur}
      error={fieldState.error?.message}
    />
  );
}
