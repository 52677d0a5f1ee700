import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useController, type FieldValues } from 'react-hook-form';
import type { BoundFieldProps } from '@/components/form/bound-field-props';
import { identityProviderQueries } from '@/api/identity-providers';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';

// Mantine's Select treats '' as "nothing selected", but '' is the default IdP's id. The stand-in
// has parentheses, which no IdP id (a LedgerString) may contain.
const DEFAULT_IDP_OPTION = '(default)';

export const DEFAULT_IDP_LABEL = 'Default IdP';

export type IdentityProviderInputProps = Omit<
  SelectProps,
  'value' | 'defaultValue' | 'onChange' | 'data'
> & {
  /** The selected IdP id; `''` is the default IdP. */
  value: string;
  onChange: (identityProviderId: string) => void;
  /** An IdP not to offer, e.g. the one a user is being moved away from. */
  exclude?: string;
};

/**
 * An IdP id (`''` = the default IdP), not bound to a form (a list's filter). Only participant
 * admins can list IdPs; an IdP admin sees its own IdP, fixed, as the participant allows no other.
 */
export function IdentityProviderInput({
  value: selected,
  onChange,
  exclude,
  description,
  disabled,
  ...props
}: IdentityProviderInputProps) {
  const caller = useQuery(sessionQueries.caller());
  const access = caller.data ? accessOf(caller.data) : undefined;
  const isParticipantAdmin = access?.isParticipantAdmin === true;
  const list = useQuery({ ...identityProviderQueries.list(), enabled: isParticipantAdmin });
  const fixedIdentityProviderId = access?.administeredIdentityProviderId;

  const ids =
    fixedIdentityProviderId !== undefined
      ? [fixedIdentityProviderId]
      : ['', ...(list.data ?? []).map((idp) => idp.identityProviderId)];
  const options = [...new Set([...ids, selected])]
    .filter((id) => id !== exclude)
    .map((id) => ({
      value: id === '' ? DEFAULT_IDP_OPTION : id,
      label:
        id === ''
          ? DEFAULT_IDP_LABEL
          : list.data?.find((idp) => idp.identityProviderId === id)?.isDeactivated
            ? `${id} (deactivated)`
            : id,
    }));
  const hint =
    fixedIdentityProviderId !== undefined
      ? 'As an IdP admin, you manage only the users of your own identity provider.'
      : list.error
        ? `Identity providers could not be loaded (${describeError(list.error).message}).`
        : undefined;

  return (
    <Select
      {...props}
      data={options}
      value={selected === exclude ? null : selected === '' ? DEFAULT_IDP_OPTION : selected}
      onChange={(next) => {
        onChange(next === null || next === DEFAULT_IDP_OPTION ? '' : next);
      }}
      allowDeselect={false}
      disabled={
        disabled === true ||
        caller.isPending ||
        fixedIdentityProviderId !== undefined ||
        (isParticipantAdmin && list.isPending)
      }
      description={description ?? hint}
    />
  );
}

export type IdentityProviderSelectProps<T extends FieldValues> = BoundFieldProps<
  IdentityProviderInputProps,
  T
>;

/** {@link IdentityProviderInput} bound to a react-hook-form field. */
export function IdentityProviderSelect<T extends FieldValues>({
  control,
  name,
  ...props
}: IdentityProviderSelectProps<T>) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  return (
    <IdentityProviderInput
      {...props}
      ref={ref}
      name={fieldName}
      value={value ?? ''}
      onChange={onChange}
      onBlur={onBlur}
      error={fieldState.error?.message}
    />
  );
}
