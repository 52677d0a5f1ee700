import type { AutocompleteProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Control, FieldValues, Path } from 'react-hook-form';

/** An input's props bound to a field of a react-hook-form form: the form gives value and error. */
export type BoundFieldProps<P, T extends FieldValues> = Omit<
  P,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

/** An id typed or picked from suggestions: the picker supplies the suggestions. */
export type IdAutocompleteProps = Omit<
  AutocompleteProps,
  'data' | 'value' | 'defaultValue' | 'onChange' | 'error' | 'renderOption'
> & {
  value: string;
  onChange: (id: string) => void;
  error?: ReactNode;
};
