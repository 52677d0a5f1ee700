import { MultiSelect, TagsInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useController, type Control } from 'react-hook-form';
import { partyQueries } from '@/api/parties';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { describeError } from '@/lib/errors/api-error';
import type { ComposerValues } from './composer-form-schema';
import type { PartyScope } from './composer-access';

export type PartiesFieldProps = {
  control: Control<ComposerValues>;
  name: 'actAs' | 'readAs';
  label: string;
  description: string;
  scope: PartyScope;
  required?: boolean;
};

/**
 * The parties a submission acts or reads as. Limited to the caller's rights when it has party
 * rights; any party (picked from the participant's, or typed in full) when it may name anyone.
 */
/**
 * The error goes above the input: the dropdown opens below it and would otherwise cover the
 * server's message (issue 16: "the Act as dropdown opens over the server's error").
 */
const ERROR_ABOVE_INPUT = ['label', 'description', 'error', 'input'] as const;

export function PartiesField({
  control,
  name,
  label,
  description,
  scope,
  required,
}: PartiesFieldProps) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  const options = useQuery({ ...partyQueries.options(''), enabled: scope.kind === 'any' });

  if (scope.kind === 'only') {
    return (
      <MultiSelect
        ref={ref}
        label={label}
        description={
          scope.parties.length === 0
            ? `${description} Your user has no right for any party here.`
            : `${description} Only parties your user has rights for.`
        }
        required={required}
        data={[...scope.parties]}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        error={fieldState.error?.message}
        disabled={scope.parties.length === 0}
        searchable
        inputWrapperOrder={[...ERROR_ABOVE_INPUT]}
        maw={FIELD_WIDTH.long}
      />
    );
  }
  const known = (options.data?.parties ?? []).map((party) => party.party);
  return (
    <TagsInput
      ref={ref}
      label={label}
      description={
        options.error
          ? `${description} Parties could not be loaded (${describeError(options.error).message}); paste party ids, Enter adds one.`
          : `${description} Pick or paste party ids; Enter adds one.`
      }
      required={required}
      data={known}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      error={fieldState.error?.message}
      limit={50}
      splitChars={[',', ' ']}
      acceptValueOnBlur
      clearable
      inputWrapperOrder={[...ERROR_ABOVE_INPUT]}
      maw={FIELD_WIDTH.long}
    />
  );
}
