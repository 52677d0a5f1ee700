import { partyHint } from '@ledger-console/participant/unique-identifier';
import { Autocomplete, Text, type AutocompleteProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { partyQueries } from '@/api/parties';
import { describeError } from '@/lib/api-error';

// Rendering a thousand options on every keystroke is slow; typing narrows the list instead.
const MAX_SHOWN_OPTIONS = 50;

export type PartyInputProps = Omit<
  AutocompleteProps,
  'data' | 'value' | 'defaultValue' | 'onChange' | 'error' | 'renderOption'
> & {
  value: string;
  onChange: (party: string) => void;
  error?: ReactNode;
  /**
   * Offer only the parties of this IdP; `''` offers every party the caller can list. Listings
   * blind other IdPs' parties (ledger-api-behaviour.md §4.7), so IdP admins pass their own IdP.
   */
  identityProviderId?: string;
};

/**
 * A party id, picked from the participant's parties (hint in bold, full id below) or typed in
 * full: the list is one page and may be incomplete, and a participant admin may name any party.
 * A failing list only adds a hint; typing still works, so the form around it keeps working.
 */
export function PartyInput({
  value,
  onChange,
  identityProviderId = '',
  description,
  disabled,
  ...props
}: PartyInputProps) {
  const { data, error, isPending } = useQuery(partyQueries.options(identityProviderId));
  const parties = (data?.parties ?? []).filter(
    (party) => identityProviderId === '' || party.identityProviderId === identityProviderId,
  );
  const hint = isPending
    ? 'Loading parties…'
    : error
      ? `Parties could not be loaded (${describeError(error).message}); type a party id.`
      : data.isComplete
        ? parties.length === 0
          ? 'No parties to choose from; type a party id.'
          : undefined
        : `Showing the first ${String(data.parties.length)} parties; type any other party id in full.`;

  return (
    <Autocomplete
      {...props}
      value={value}
      onChange={onChange}
      disabled={disabled === true || isPending}
      data={parties.map((party) => party.party)}
      limit={MAX_SHOWN_OPTIONS}
      renderOption={({ option }) => <PartyOption party={option.value} />}
      description={
        description && hint ? (
          <>
            {description} {hint}
          </>
        ) : (
          (description ?? hint)
        )
      }
      autoComplete="off"
      spellCheck={false}
    />
  );
}

function PartyOption({ party }: { party: string }) {
  const hint = partyHint(party);
  // Spans with a space between, so the option's accessible name reads "alice alice::1220…".
  return (
    <div>
      {hint !== undefined && (
        <>
          <Text span display="block" size="sm" fw={700}>
            {hint}
          </Text>{' '}
        </>
      )}
      <Text span display="block" size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {party}
      </Text>
    </div>
  );
}

export type PartySelectProps<T extends FieldValues> = Omit<
  PartyInputProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error'
> & { control: Control<T>; name: Path<T> };

/** {@link PartyInput} bound to a string field of a react-hook-form form; `''` = no party. */
export function PartySelect<T extends FieldValues>({
  control,
  name,
  ...props
}: PartySelectProps<T>) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return (
    <PartyInput
      {...props}
      ref={ref}
      name={fieldName}
      // An unset optional field arrives as undefined; the input must stay controlled.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      value={(value as string | undefined) ?? ''}
      onChange={onChange}
      onBlur={onBlur}
      error={fieldState.error?.message}
    />
  );
}
