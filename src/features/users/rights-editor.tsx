import { Checkbox, Fieldset, Group, Select, Stack, Text, Title } from '@mantine/core';
import {
  useController,
  type Control,
  type FieldPathByValue,
  type FieldValues,
} from 'react-hook-form';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { AddRowButton } from '@/components/add-row-button';
import { RemoveButton } from '@/components/remove-button';
import { PARTY_RIGHT_KINDS, type RightKind } from '@/lib/access/access-rights';
import { PartyInput } from '@/pickers/party-select';
import { ADMIN_ONLY_EXPLANATION, RIGHT_KIND_INFO } from '@/lib/access/right-names';
import { OTHER_RIGHT_KINDS, type OtherRightKind, type RightsValues } from './rights-form-schema';

type Message = { message?: string };
/** The errors react-hook-form keeps under a RightsValues field. */
type RightsError = Message & {
  root?: Message;
  partyRights?: Partial<Record<number, { party?: Message; kind?: Message }>>;
};

export type RightsEditorProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPathByValue<T, RightsValues>;
  legend: string;
  /** Kinds the caller may not grant are shown disabled, with the reason. */
  canGrant: (kind: RightKind) => boolean;
  /** Offer the parties of this IdP only (`''`: all the caller can list). */
  partiesOfIdentityProviderId: string;
  /** The level of its subsection headings: one below the heading the editor sits under. */
  headingOrder?: 2 | 3 | 4;
};

/**
 * Every right kind of the API: rows of party rights (act, read, execute as a party), and a
 * checkbox for each party-less kind, each with one line of help.
 */
export function RightsEditor<T extends FieldValues>({
  control,
  name,
  legend,
  canGrant,
  partiesOfIdentityProviderId,
  headingOrder = 3,
}: RightsEditorProps<T>) {
  const {
    field: { value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  const rights = value as RightsValues;
  const error = fieldState.error as RightsError | undefined;
  const partyKinds = PARTY_RIGHT_KINDS.filter(canGrant);
  const wholeError = error?.message ?? error?.root?.message;

  const setPartyRights = (partyRights: RightsValues['partyRights']) => {
    onChange({ ...rights, partyRights });
  };

  return (
    <Fieldset legend={legend} variant="unstyled">
      <Stack gap="md">
        <Stack gap="xs">
          <Title order={headingOrder} size="h5">
            Rights for a party
          </Title>
          {rights.partyRights.length === 0 && (
            <Text size="sm" c="dimmed">
              None. Add one to let the user act, read or execute as a party.
            </Text>
          )}
          {rights.partyRights.map((row, index) => {
            const rowLabel = `Right ${String(index + 1)}`;
            return (
              // Rows have no identity of their own; every input is controlled through its index.
              <Group key={index} align="flex-start" gap="xs" wrap="nowrap">
                <Select
                  aria-label={`${rowLabel} kind`}
                  data={partyKinds.map((kind) => ({
                    value: kind,
                    label: RIGHT_KIND_INFO[kind].label,
                  }))}
                  value={row.kind}
                  allowDeselect={false}
                  onChange={(kind) => {
                    if (kind === null) return;
                    setPartyRights(
                      rights.partyRights.map((r, i) => (i === index ? { ...r, kind } : r)),
                    );
                  }}
                  onBlur={onBlur}
                  description={RIGHT_KIND_INFO[row.kind].help}
                  w={FIELD_WIDTH.short}
                  style={{ flexShrink: 0 }}
                />
                <PartyInput
                  aria-label={`${rowLabel} party`}
                  placeholder="Party id"
                  value={row.party}
                  onChange={(party) => {
                    setPartyRights(
                      rights.partyRights.map((r, i) => (i === index ? { ...r, party } : r)),
                    );
                  }}
                  onBlur={onBlur}
                  identityProviderId={partiesOfIdentityProviderId}
                  error={error?.partyRights?.[index]?.party?.message}
                  style={{ flex: 1 }}
                  maw={FIELD_WIDTH.long}
                />
                <RemoveButton
                  label={`Remove right ${String(index + 1)}`}
                  onClick={() => {
                    setPartyRights(rights.partyRights.filter((_, i) => i !== index));
                  }}
                />
              </Group>
            );
          })}
          <AddRowButton
            onClick={() => {
              setPartyRights([...rights.partyRights, { kind: 'CanActAs', party: '' }]);
            }}
          >
            Add party right
          </AddRowButton>
        </Stack>

        <Stack gap="xs">
          <Title order={headingOrder} size="h5">
            Rights without a party
          </Title>
          {OTHER_RIGHT_KINDS.map((kind) => {
            const isAllowed = canGrant(kind);
            const { label, help } = RIGHT_KIND_INFO[kind];
            return (
              <Checkbox
                key={kind}
                label={label}
                description={isAllowed ? help : `${help} ${ADMIN_ONLY_EXPLANATION}`}
                disabled={!isAllowed}
                checked={rights.otherRights.includes(kind)}
                onChange={(event) => {
                  const isChecked = event.currentTarget.checked;
                  const otherRights: OtherRightKind[] = isChecked
                    ? [...rights.otherRights, kind]
                    : rights.otherRights.filter((k) => k !== kind);
                  onChange({ ...rights, otherRights });
                }}
                onBlur={onBlur}
              />
            );
          })}
        </Stack>
        {wholeError !== undefined && (
          <Text size="sm" c="red" role="alert">
            {wholeError}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
