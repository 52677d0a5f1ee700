import {
  useQueryClient,
  type QueryExecuteOptions,
  type QueryKey,
  type UseMutationOptions,
} from '@tanstack/react-query';
import { useState, type BaseSyntheticEvent } from 'react';
import {
  useForm,
  useFormState,
  type Control,
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type { ApiError } from '@/lib/errors/api-error';
import { useFormMutation } from './use-form-mutation';
import { useReloadLatest } from './use-reload-latest';

export type GuardedEditFormOptions<
  TEntity,
  TValues extends FieldValues,
  TVariables,
  TLatest extends TEntity | null | undefined,
  TKey extends QueryKey,
> = {
  /** The entity as loaded when the page opened; edits are based on its resourceVersion. */
  loaded: TEntity;
  resolver: Resolver<TValues>;
  toValues: (entity: TEntity) => TValues;
  /** The update of `base` to `values`, or undefined when there is nothing to send. */
  toVariables: (base: TEntity, values: TValues) => TVariables | undefined;
  /** The update; it answers with the entity as saved, at its new resourceVersion. */
  mutation: UseMutationOptions<TEntity, Error, TVariables>;
  /** The field a refusal concerns (see useFormMutation); undefined puts it at the top. */
  errorField: (error: ApiError, values: TValues) => Path<TValues> | undefined;
  /** The entity's query, read afresh on "Reload latest"; no entity (null or undefined) means it is gone. */
  latestQuery: (base: TEntity) => QueryExecuteOptions<TLatest, Error, TLatest, TLatest, TKey>;
  /** Says that it was saved (a toast). */
  onSaved: (saved: TEntity) => void;
};

/** What {@link GuardedEditForm} renders: submit, save/discard state and the update's error. */
export type GuardedEditControls<TValues extends FieldValues> = {
  handleSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  isDirty: boolean;
  isSaving: boolean;
  /** Back to the entity the edits are based on. */
  discard: () => void;
  /** For {@link FormUpdateError}, with the conflict's code and title. */
  updateError: {
    control: Control<TValues>;
    error: unknown;
    onReload: () => void;
    isReloading: boolean;
  };
};

export type GuardedEdit<TEntity, TValues extends FieldValues> = GuardedEditControls<TValues> & {
  form: UseFormReturn<TValues>;
  /** The entity the edits are based on (its resourceVersion goes with the next save). */
  base: TEntity;
};

/**
 * An edit form for an entity guarded by a resourceVersion: the loaded entity is the base of every
 * save, so a concurrent change is refused (CONCURRENT_*_UPDATE_DETECTED) rather than overwritten,
 * and the form keeps the typed values until the user reloads the latest version or discards.
 * {@link GuardedEditForm} renders it around the fields.
 */
export function useGuardedEditForm<
  TEntity,
  TValues extends FieldValues,
  TVariables,
  TLatest extends TEntity | null | undefined,
  TKey extends QueryKey,
>({
  loaded,
  resolver,
  toValues,
  toVariables,
  mutation,
  errorField,
  latestQuery,
  onSaved,
}: GuardedEditFormOptions<TEntity, TValues, TVariables, TLatest, TKey>): GuardedEdit<
  TEntity,
  TValues
> {
  const queryClient = useQueryClient();
  // What the form edits: the entity as loaded, saved, or explicitly reloaded; never a background
  // refetch, which would silently move the resourceVersion under the user's edits.
  const [base, setBase] = useState(loaded);
  const form = useForm<TValues>({
    resolver,
    // DefaultValues is the values' deep partial; TypeScript cannot see that for a generic TValues.
    defaultValues: toValues(base) as DefaultValues<TValues>,
  });
  const { isDirty } = useFormState({ control: form.control });
  const update = useFormMutation(form, mutation, {}, (error) =>
    errorField(error, form.getValues()),
  );

  const handleSubmit = form.handleSubmit((values) => {
    const variables = toVariables(base, values);
    if (variables === undefined) return;
    update.mutate(variables, {
      onSuccess: (saved) => {
        onSaved(saved);
        setBase(saved);
        form.reset(toValues(saved));
      },
    });
  });

  const reloadLatest = useReloadLatest(
    () => queryClient.query({ ...latestQuery(base), staleTime: 0 }),
    (latest) => {
      // Gone meanwhile: keep the form; saving will say so.
      if (latest === null || latest === undefined) return;
      setBase(latest);
      form.reset(toValues(latest));
      update.reset();
    },
  );

  const discard = () => {
    form.reset(toValues(base));
    update.reset();
  };

  return {
    form,
    base,
    isDirty,
    isSaving: update.isPending,
    handleSubmit,
    discard,
    updateError: {
      control: form.control,
      error: update.error,
      onReload: reloadLatest.reload,
      isReloading: reloadLatest.isReloading,
    },
  };
}
