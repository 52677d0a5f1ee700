import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { type ApiError, describeError, isApiError } from '@/lib/errors/api-error';

/** Which form field an API error code belongs to, e.g. `{ USER_ALREADY_EXISTS: 'userId' }`. */
export type FieldsByCode<T extends FieldValues> = Partial<Record<string, Path<T>>>;

/**
 * A mutation whose failures show inside the form (style guide §B6): on the field that an error code
 * belongs to, otherwise at the top (`root.server`). What the user typed is never reset here.
 * `fieldFor` may pick a field from the error itself, e.g. INVALID_FIELD's field name in the cause.
 */
export function useFormMutation<T extends FieldValues, TData, TVariables>(
  form: UseFormReturn<T>,
  options: UseMutationOptions<TData, Error, TVariables>,
  fieldsByCode: FieldsByCode<T> = {},
  fieldFor?: (error: ApiError) => Path<T> | undefined,
) {
  return useMutation<TData, Error, TVariables>({
    ...options,
    meta: { ...options.meta, errorDisplay: 'inline' },
    onMutate: (variables, context) => {
      form.clearErrors('root.server');
      return options.onMutate?.(variables, context);
    },
    onError: (error, variables, onMutateResult, context) => {
      const field = isApiError(error) ? (fieldFor?.(error) ?? fieldsByCode[error.code]) : undefined;
      const { message } = describeError(error);
      if (field) form.setError(field, { type: 'server', message }, { shouldFocus: true });
      else form.setError('root.server', { type: 'server', message });
      return options.onError?.(error, variables, onMutateResult, context);
    },
  });
}
