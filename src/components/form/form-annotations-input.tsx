import { Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  useController,
  type Control,
  type FieldPathByValue,
  type FieldValues,
} from 'react-hook-form';
import { RemoveButton } from '@/components/remove-button';
import {
  hasBidiControls,
  hasSpoofingCharacters,
  revealBidiControls,
  revealControls,
} from '@/lib/text/display-text';

/** One entry of a key/value map, as the editor holds it (order kept, duplicates possible). */
export type KeyValueRow = { key: string; value: string };

/** The errors react-hook-form keeps for an array of rows: per row and field, or for the whole. */
type RowsError = {
  message?: string;
  root?: { message?: string };
} & Partial<Record<number, { key?: { message?: string }; value?: { message?: string } }>>;

export type FormAnnotationsInputProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPathByValue<T, KeyValueRow[]>;
  /** Names the group and its rows ("Annotations" → "Annotation 1 key"). */
  label?: string;
  description?: ReactNode;
  disabled?: boolean;
};

/**
 * A key/value map (e.g. resource annotations) as editable rows, bound to one array field. The
 * rules for keys and values belong to the form's schema; this shows each row's messages.
 */
export function FormAnnotationsInput<T extends FieldValues>({
  control,
  name,
  label = 'Annotations',
  description,
  disabled,
}: FormAnnotationsInputProps<T>) {
  const {
    field: { value, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  const rows = (value as KeyValueRow[] | undefined) ?? [];
  const error = fieldState.error as RowsError | undefined;
  const singular = label.replace(/s$/, '');
  const wholeError = error?.message ?? error?.root?.message;

  const update = (index: number, change: Partial<KeyValueRow>) => {
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  };

  return (
    <Fieldset legend={label} variant="unstyled" disabled={disabled}>
      <Stack gap="xs">
        {description !== undefined && (
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        )}
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No {label.toLowerCase()}.
          </Text>
        )}
        {rows.map((row, index) => {
          const rowLabel = `${singular} ${String(index + 1)}`;
          return (
            // Rows have no identity of their own; every input is controlled through its index.
            <Group key={index} align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                aria-label={`${rowLabel} key`}
                placeholder="key, e.g. example.com/team"
                value={row.key}
                onChange={(event) => {
                  update(index, { key: event.currentTarget.value });
                }}
                onBlur={onBlur}
                error={error?.[index]?.key?.message}
                description={hiddenNote(row.key, true)}
                style={{ flex: 1 }}
                autoComplete="off"
              />
              <TextInput
                aria-label={`${rowLabel} value`}
                placeholder="value"
                value={row.value}
                onChange={(event) => {
                  update(index, { value: event.currentTarget.value });
                }}
                onBlur={onBlur}
                error={error?.[index]?.value?.message}
                description={hiddenNote(row.value, false)}
                style={{ flex: 2 }}
                autoComplete="off"
              />
              <RemoveButton
                label={`Remove ${rowLabel.toLowerCase()}`}
                onClick={() => {
                  onChange(rows.filter((_, i) => i !== index));
                }}
              />
            </Group>
          );
        })}
        {wholeError !== undefined && (
          <Text size="sm" c="red" role="alert">
            {wholeError}
          </Text>
        )}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => {
              onChange([...rows, { key: '', value: '' }]);
            }}
          >
            Add {singular.toLowerCase()}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/**
 * An input cannot show its value's hidden characters without changing the value, and a loaded
 * annotation `\u202Egnp.exe` reads "exe.png" in it: say under the input what is really there.
 */
function hiddenNote(text: string, isKey: boolean): ReactNode {
  if (isKey ? !hasSpoofingCharacters(text) : !hasBidiControls(text)) return undefined;
  return (
    <bdi>Holds hidden characters: {isKey ? revealControls(text) : revealBidiControls(text)}</bdi>
  );
}
