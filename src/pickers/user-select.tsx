import { isValidIdString, USER_ID_STRING } from '@ledger-console/participant/identifiers';
import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import type { BoundFieldProps, IdAutocompleteProps } from '@/components/form/bound-field-props';
import { useStringField } from '@/components/form/use-string-field';
import { MAX_USERS_PAGE_SIZE, userQueries } from '@/api/users';
import { describeError, isMaskedRefusal, isNotFound } from '@/lib/errors/api-error';
import { FieldCheck } from '@/components/form/field-check';
import { withHint } from '@/components/form/with-hint';

// Rendering a thousand options on every keystroke is slow; typing narrows the list instead.
const MAX_SHOWN_OPTIONS = 50;
// Long enough that typing does not ask the participant once per keystroke.
const CHECK_DELAY_MS = 400;

export type UserInputProps = IdAutocompleteProps & {
  /**
   * The IdP the user must belong to (`''` = default). Suggestions are the users the caller can
   * list that belong to it: GET /v2/users lists a participant admin only the default IdP's users
   * and an IdP admin its own (ledger-api-behaviour.md §2.6); any other id can be typed in full.
   */
  identityProviderId: string;
};

/**
 * A user id, picked from the users the caller can list or pasted, with a visible check under it:
 * the user exists in that identity provider, is deactivated, or is not there.
 */
export function UserInput({
  value,
  onChange,
  identityProviderId,
  description,
  disabled,
  ...props
}: UserInputProps) {
  const { data, error, isPending } = useQuery({
    ...userQueries.list({ pageSize: MAX_USERS_PAGE_SIZE, pageToken: '' }),
    meta: { errorDisplay: 'inline' },
  });
  const users = (data?.users ?? []).filter(
    (user) => (user.identityProviderId ?? '') === identityProviderId,
  );
  const hint = isPending
    ? 'Loading users…'
    : error
      ? `Users could not be loaded (${describeError(error).message}); type a user id.`
      : undefined;
  const text = withHint(description, hint);

  return (
    <Autocomplete
      {...props}
      value={value}
      onChange={onChange}
      disabled={disabled === true}
      data={users.map((user) => user.id)}
      limit={MAX_SHOWN_OPTIONS}
      description={
        <>
          {text} <UserCheck userId={value.trim()} identityProviderId={identityProviderId} />
        </>
      }
      autoComplete="off"
      spellCheck={false}
    />
  );
}

function UserCheck({ userId, identityProviderId }: { userId: string; identityProviderId: string }) {
  const [settled] = useDebouncedValue(userId, CHECK_DELAY_MS);
  const isCurrent = settled === userId;
  const lookup = useQuery({
    ...userQueries.detail({ userId: settled, identityProviderId }),
    enabled: isCurrent && isValidIdString(USER_ID_STRING, settled),
    retry: false,
    meta: { errorDisplay: 'inline' },
  });
  if (!isCurrent || userId === '' || !isValidIdString(USER_ID_STRING, userId)) return null;
  const idp = identityProviderId === '' ? 'the default identity provider' : identityProviderId;
  if (lookup.isSuccess) {
    return lookup.data.isDeactivated === true ? (
      <FieldCheck tone="warning">
        ⚠ User “{userId}” is deactivated: its tokens are refused
      </FieldCheck>
    ) : (
      <FieldCheck tone="ok">✓ User exists in {idp}</FieldCheck>
    );
  }
  if (lookup.isError) {
    if (isNotFound(lookup.error)) {
      return (
        <FieldCheck tone="warning">
          ⚠ No user “{userId}” in {idp}
        </FieldCheck>
      );
    }
    // The participant refuses a user of another IdP (redacted 403, §2.4).
    if (isMaskedRefusal(lookup.error)) {
      return (
        <FieldCheck tone="warning">
          ⚠ “{userId}” is not a user of {idp} that you may see: it may belong to another identity
          provider
        </FieldCheck>
      );
    }
    return <FieldCheck tone="dimmed">Could not check whether this user exists.</FieldCheck>;
  }
  return null;
}

export type UserSelectProps<T extends FieldValues> = BoundFieldProps<UserInputProps, T>;

/** {@link UserInput} bound to a string field of a react-hook-form form; `''` = nobody. */
export function UserSelect<T extends FieldValues>({ control, name, ...props }: UserSelectProps<T>) {
  return <UserInput {...props} {...useStringField(control, name)} />;
}
