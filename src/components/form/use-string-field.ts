import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

/**
 * One string field of a react-hook-form form as an input's props, with the field's message as its
 * error. An unset optional field arrives as undefined: it is given as `''`, so the input stays
 * controlled.
 */
export function useStringField<T extends FieldValues>(control: Control<T>, name: Path<T>) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return {
    ref,
    name: fieldName,
    value: (value as string | undefined) ?? '',
    onChange,
    onBlur,
    error: fieldState.error?.message,
  };
}
