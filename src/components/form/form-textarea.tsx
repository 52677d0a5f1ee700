import { Textarea, type TextareaProps } from '@mantine/core';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

export type FormTextareaProps<T extends FieldValues> = Omit<
  TextareaProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

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
