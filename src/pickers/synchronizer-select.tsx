import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { synchronizerQueries } from '@/api/synchronizers';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormSelect } from '@/components/form/form-select';
import { shortenIdentifier } from '@/lib/text/format';

export type SynchronizerSelectProps<T extends FieldValues> = {
  form: UseFormReturn<T>;
  name: Path<T>;
  description: string;
};

/**
 * Where something is hosted: one of the synchronizers the participant is connected to. With only
 * one, it is chosen already; a value it is not connected to (a prefill from a link) is no choice
 * the form offers, so it is cleared.
 */
export function SynchronizerSelect<T extends FieldValues>({
  form,
  name,
  description,
}: SynchronizerSelectProps<T>) {
  const synchronizers = useQuery(synchronizerQueries.connected());
  const connected = synchronizers.data;
  useEffect(() => {
    if (connected === undefined) return;
    const [only, ...others] = connected;
    const value = form.getValues(name) as string;
    let chosen = connected.some((s) => s.synchronizerId === value) ? value : '';
    if (chosen === '' && only !== undefined && others.length === 0) chosen = only.synchronizerId;
    if (chosen !== value) form.setValue(name, chosen as PathValue<T, Path<T>>);
  }, [connected, form, name]);

  return (
    <>
      <FormSelect
        control={form.control}
        name={name}
        label="Synchronizer"
        description={description}
        data={(connected ?? []).map((synchronizer) => ({
          value: synchronizer.synchronizerId,
          label: `${synchronizer.synchronizerAlias} (${shortenIdentifier(synchronizer.synchronizerId)})`,
        }))}
        required
        allowDeselect={false}
        disabled={connected === undefined}
        maw={FIELD_WIDTH.long}
      />
      {synchronizers.error && (
        <ErrorAlert
          error={synchronizers.error}
          onRetry={() => {
            void synchronizers.refetch();
          }}
        />
      )}
    </>
  );
}
