import { useFormState, type Control, type FieldValues } from 'react-hook-form';
import { ErrorAlert } from '@/components/feedback/error-alert';

export type FormRootErrorProps<T extends FieldValues> = {
  control: Control<T>;
  /** The failed submission's error (the mutation's), for its code and correlation id. */
  error?: unknown;
};

/**
 * A submission failure that no field owns, at the top of the form. useFormMutation marks it as
 * `root.server`; a field-level server error or a new submission clears it.
 */
export function FormRootError<T extends FieldValues>({ control, error }: FormRootErrorProps<T>) {
  const { errors } = useFormState({ control });
  const rootError = errors.root?.server;
  if (!rootError) return null;
  return <ErrorAlert error={error ?? rootError.message} />;
}
