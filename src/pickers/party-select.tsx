import { isValidIdString, PARTY_STRING } from '@ledger-console/participant/identifiers';
import { partyHint } from '@ledger-console/participant/unique-identifier';
import { Autocomplete, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import type { BoundFieldProps, IdAutocompleteProps } from '@/components/form/bound-field-props';
import { useStringField } from '@/components/form/use-string-field';
import { partyQueries } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import { accessOf, type Caller } from '@/lib/access/access-rights';
import { describeError, isApiError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import { FieldCheck } from '@/components/form/field-check';
import { withHint } from '@/components/form/with-hint';

// Rendering a thousand options on every keystroke is slow; typing narrows the list instead.
const MAX_SHOWN_OPTIONS = 50;

export type PartyInputProps = IdAutocompleteProps & {
  /**
   * Offer only the parties of this IdP; `''` offers every party the caller can list. Listings
   * blind other IdPs' parties (ledger-api-behaviour.md §4.7), so IdP admins pass their own IdP.
   */
  identityProviderId?: string;
  /**
   * Show under the field whether the party is hosted here ("✓ Hosted here") or unknown (a
   * warning, not a refusal: a primary party need not exist). For fields where the value should
   * exist but any party string is allowed.
   */
  showCheck?: boolean;
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
  showCheck = false,
  ...props
}: PartyInputProps) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  // Only admins may list parties (ledger-api-behaviour.md §4.6): anyone else is offered its own.
  const mayList = caller.data === undefined || accessOf(caller.data).canManageUsers;
  const { data, error, isPending } = useQuery({
    ...partyQueries.options(identityProviderId),
    enabled: mayList,
    meta: { errorDisplay: 'inline' },
  });
  // A refused list is no failure for whoever may not list: their own parties stand in.
  const isRefused = isApiError(error) && error.status === 403;
  const own = ownParties(caller.data);
  const isOwnList = !mayList || isRefused;
  const parties = isOwnList
    ? []
    : (data?.parties ?? []).filter(
        (party) => identityProviderId === '' || party.identityProviderId === identityProviderId,
      );
  const options = isOwnList ? own : parties.map((party) => party.party);
  const hint = isOwnList
    ? own.length === 0
      ? 'Your user has no party rights here; type a party id in full.'
      : 'Offers the parties your user may act or read as; type any other party id in full.'
    : isPending
      ? 'Loading parties…'
      : error
        ? `Parties could not be loaded (${describeError(error).message}); type a party id.`
        : data.isComplete
          ? options.length === 0
            ? 'No parties to choose from; type a party id.'
            : undefined
          : `Showing the first ${String(data.parties.length)} parties; type any other party id in full.`;

  const check = showCheck ? (
    <PartyCheck
      party={value.trim()}
      identityProviderId={identityProviderId}
      listed={parties.find((party) => party.party === value.trim())}
    />
  ) : undefined;
  const text = withHint(description, hint);

  return (
    <Autocomplete
      {...props}
      value={value}
      onChange={onChange}
      disabled={disabled === true || (isPending && !isOwnList)}
      data={options}
      limit={MAX_SHOWN_OPTIONS}
      renderOption={({ option }) => <PartyOption party={option.value} />}
      description={
        check === undefined ? (
          text
        ) : (
          <>
            {text} {check}
          </>
        )
      }
      autoComplete="off"
      spellCheck={false}
    />
  );
}

/** The parties the caller holds a right for (act, read or execute as), sorted. */
function ownParties(caller: Caller | undefined): string[] {
  if (caller?.kind !== 'user') return [];
  const parties = new Set<string>();
  for (const right of caller.rights) if ('party' in right) parties.add(right.party);
  return [...parties].sort();
}

// Long enough that typing does not ask the participant once per keystroke.
const CHECK_DELAY_MS = 400;

/**
 * Whether a typed or picked party is hosted here. A party in the picker's list answers at once;
 * any other valid party string is looked up (GET /v2/parties/{party}, which leaves unknown parties
 * out instead of failing). Values from the ledger are shown as text only.
 */
function PartyCheck({
  party,
  identityProviderId,
  listed,
}: {
  party: string;
  identityProviderId: string;
  listed: { isLocal?: boolean } | undefined;
}) {
  const [settled] = useDebouncedValue(party, CHECK_DELAY_MS);
  const isValid = isValidIdString(PARTY_STRING, settled);
  const lookup = useQuery({
    ...partyQueries.detail({ party: settled, identityProviderId }),
    enabled: listed === undefined && isValid && settled === party,
    meta: { errorDisplay: 'inline' },
  });
  if (party === '' || !isValidIdString(PARTY_STRING, party)) return null;
  const details = listed ?? (settled === party ? lookup.data : undefined);
  if (details === undefined) {
    return lookup.isError && settled === party ? (
      <FieldCheck tone="dimmed">Could not check whether this party is hosted here.</FieldCheck>
    ) : null;
  }
  if (details === null) {
    return (
      <FieldCheck tone="warning">
        ⚠ No party “{shortenIdentifier(party)}” on this participant
      </FieldCheck>
    );
  }
  return details.isLocal === true ? (
    <FieldCheck tone="ok">✓ Hosted here</FieldCheck>
  ) : (
    <FieldCheck tone="warning">
      ⚠ Known to this participant, but hosted elsewhere or in another identity provider
    </FieldCheck>
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

export type PartySelectProps<T extends FieldValues> = BoundFieldProps<PartyInputProps, T>;

/** {@link PartyInput} bound to a string field of a react-hook-form form; `''` = no party. */
export function PartySelect<T extends FieldValues>({
  control,
  name,
  ...props
}: PartySelectProps<T>) {
  return <PartyInput {...props} {...useStringField(control, name)} />;
}
