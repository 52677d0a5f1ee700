import {
  Alert,
  Checkbox,
  Fieldset,
  Group,
  JsonInput,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { DamlType, Field, TypeConName } from '@/api/daml-lf-decoder';
import { findDataType, formatType, recordFieldsOf } from '@/api/daml-lf-decoder';
import { packageQueries } from '@/api/packages';
import { AddRowButton } from '@/components/add-row-button';
import { RemoveButton } from '@/components/remove-button';
import { isRecord } from '@/lib/values/is-record';
import { PartyInput } from '@/pickers/party-select';
import {
  defaultDamlValue,
  isRecordOfFields,
  optionalInner,
  recordOfFields,
  toJsonText,
  type ResolveDataType,
  appliedConstructors,
} from './daml-value';

/**
 * Looks data types up in the packages decoded so far (the template catalog decodes them all), so
 * a new enum or variant value starts as a valid one instead of `{}`.
 */
function useResolveDataType(): ResolveDataType {
  const queryClient = useQueryClient();
  return useCallback(
    (tycon) => {
      const contents = queryClient.getQueryData(packageQueries.contents(tycon.packageId).queryKey);
      return contents ? findDataType([contents], tycon) : undefined;
    },
    [queryClient],
  );
}

export type DamlValueEditorProps = {
  type: DamlType;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The accessible name of the input (a field name, "Item 2", …). */
  label: string;
  /** Inside an optional already: a nested optional is `[]` / `[v]` (§7.1). */
  insideOptional?: boolean;
};

/**
 * An input for one Daml value of a given type, in the JSON API's encoding: records as fieldsets,
 * variants and enums as a constructor select, lists with add/remove, optionals with a "set"
 * checkbox, parties with the party picker. Types without a form (maps, type variables, …) get a
 * small JSON editor of their own.
 */
export function DamlValueEditor(props: DamlValueEditorProps) {
  const { type } = props;
  if (type.kind === 'con') return <ConstructorEditor {...props} tycon={type.tycon} />;
  if (type.kind === 'prim') {
    switch (type.prim) {
      case 'OPTIONAL':
        return <OptionalEditor {...props} />;
      case 'LIST':
        return <ListEditor {...props} />;
      case 'BOOL':
        return (
          <Checkbox
            label={props.label}
            checked={props.value === true}
            onChange={(event) => {
              props.onChange(event.currentTarget.checked);
            }}
          />
        );
      case 'UNIT':
        return (
          <Text size="sm" c="dimmed">
            {props.label}: () (no value to enter)
          </Text>
        );
      case 'PARTY':
        return (
          <PartyInput
            label={props.label}
            value={typeof props.value === 'string' ? props.value : ''}
            onChange={props.onChange}
          />
        );
      case 'TEXT':
      case 'CONTRACT_ID':
      case 'INT64':
      case 'NUMERIC':
      case 'BIGNUMERIC':
      case 'DATE':
      case 'TIMESTAMP':
        return <ScalarEditor {...props} />;
      default:
        break;
    }
  }
  return <JsonValueEditor {...props} />;
}

const SCALAR_HINTS: Partial<Record<string, { description: string; placeholder?: string }>> = {
  INT64: { description: 'Int: a whole number' },
  NUMERIC: { description: 'Decimal', placeholder: '0.0' },
  BIGNUMERIC: { description: 'BigNumeric', placeholder: '0.0' },
  DATE: { description: 'Date', placeholder: 'YYYY-MM-DD' },
  TIMESTAMP: { description: 'Time (ISO 8601, UTC)', placeholder: '2030-01-01T00:00:00Z' },
  CONTRACT_ID: { description: 'Contract id' },
};

function ScalarEditor({ type, value, onChange, label }: DamlValueEditorProps) {
  const prim = type.kind === 'prim' ? type.prim : '';
  const hint = SCALAR_HINTS[prim];
  const isNumber = prim === 'INT64' || prim === 'NUMERIC' || prim === 'BIGNUMERIC';
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const problem =
    isNumber && text !== '' && !(prim === 'INT64' ? /^-?\d+$/ : /^-?\d+(\.\d*)?$/).test(text)
      ? prim === 'INT64'
        ? 'A whole number'
        : 'A decimal number, e.g. 12.5'
      : undefined;
  return (
    <TextInput
      label={label}
      description={
        prim === 'CONTRACT_ID' && type.kind === 'prim' && type.args[0]
          ? `Contract id of ${formatType(type.args[0])}`
          : hint?.description
      }
      placeholder={hint?.placeholder}
      value={text}
      inputMode={isNumber ? 'decimal' : undefined}
      ff={prim === 'CONTRACT_ID' ? 'monospace' : undefined}
      error={problem}
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => {
        onChange(event.currentTarget.value);
      }}
    />
  );
}

function OptionalEditor({ type, value, onChange, label, insideOptional }: DamlValueEditorProps) {
  const resolve = useResolveDataType();
  const inner = optionalInner(type);
  if (!inner) return null;
  // The inner value: `v` (outermost optional) or `[v]` (nested).
  const isSet = insideOptional ? Array.isArray(value) && value.length > 0 : value !== null;
  const innerValue: unknown = insideOptional
    ? Array.isArray(value)
      ? (value as unknown[])[0]
      : undefined
    : value;
  const wrap = (next: unknown): unknown => (insideOptional ? [next] : next);
  const empty = insideOptional ? [] : null;
  return (
    <Stack gap={4}>
      <Checkbox
        label={`${label} (optional): set a value`}
        checked={isSet}
        onChange={(event) => {
          onChange(event.currentTarget.checked ? wrap(defaultDamlValue(inner, resolve)) : empty);
        }}
      />
      {isSet && (
        <DamlValueEditor
          type={inner}
          value={innerValue}
          label={label}
          insideOptional
          onChange={(next) => {
            onChange(wrap(next));
          }}
        />
      )}
    </Stack>
  );
}

function ListEditor({ type, value, onChange, label }: DamlValueEditorProps) {
  const resolve = useResolveDataType();
  const itemType = type.kind === 'prim' ? type.args[0] : undefined;
  if (!itemType) return null;
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  return (
    <Fieldset legend={`${label} (list)`} variant="unstyled">
      <Stack gap="xs">
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            Empty list
          </Text>
        )}
        {items.map((item, index) => (
          // Items have no identity but their position.
          <Group key={index} align="flex-end" wrap="nowrap">
            <div style={{ flex: 1 }}>
              <DamlValueEditor
                type={itemType}
                value={item}
                label={`${label} ${String(index + 1)}`}
                onChange={(next) => {
                  onChange(items.map((other, at) => (at === index ? next : other)));
                }}
              />
            </div>
            <RemoveButton
              label={`Remove ${label} ${String(index + 1)}`}
              onClick={() => {
                onChange(items.filter((_, at) => at !== index));
              }}
            />
          </Group>
        ))}
        <AddRowButton
          onClick={() => {
            onChange([...items, defaultDamlValue(itemType, resolve)]);
          }}
        >
          Add to {label}
        </AddRowButton>
      </Stack>
    </Fieldset>
  );
}

/** Records, variants and enums: their definition may be in another (dependency) package. */
function ConstructorEditor(props: DamlValueEditorProps & { tycon: TypeConName }) {
  const { tycon, label } = props;
  const contents = useQuery({ ...packageQueries.contents(tycon.packageId), retry: false });
  if (contents.isPending) {
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">Loading the type of {label}…</Text>
      </Group>
    );
  }
  const dataType = contents.data ? findDataType([contents.data], tycon) : undefined;
  if (!dataType) {
    // The package cannot be read here: the value is still editable as JSON.
    return <JsonValueEditor {...props} />;
  }
  if (dataType.kind === 'record') {
    const fields = contents.data ? recordFieldsOf([contents.data], props.type) : undefined;
    // Without its fields (a parameter it cannot apply) a record is edited as JSON, untouched.
    if (!fields) return <JsonValueEditor {...props} />;
    return <RecordEditor {...props} fields={fields} />;
  }
  if (dataType.kind === 'enum') {
    return <EnumEditor {...props} constructors={dataType.constructors} />;
  }
  if (dataType.kind === 'variant') {
    const constructors = appliedConstructors(
      dataType,
      props.type.kind === 'con' ? props.type.args : [],
    );
    // Applied to the wrong number of types (a bug elsewhere): JSON, as for anything unknown.
    if (!constructors) return <JsonValueEditor {...props} />;
    return <VariantEditor {...props} constructors={constructors} />;
  }
  return <JsonValueEditor {...props} />;
}

function EnumEditor({
  value,
  onChange,
  label,
  constructors,
}: DamlValueEditorProps & { constructors: readonly string[] }) {
  const first = constructors[0];
  // A value made before the type was known (`{}`) is no enum: start from the first constructor.
  useEffect(() => {
    if (typeof value !== 'string' && first !== undefined) onChange(first);
  });
  return (
    <Select
      label={label}
      data={[...constructors]}
      value={typeof value === 'string' ? value : null}
      allowDeselect={false}
      onChange={(next) => {
        if (next !== null) onChange(next);
      }}
    />
  );
}

function RecordEditor({
  value,
  onChange,
  label,
  fields,
  isTopLevel,
}: DamlValueEditorProps & { fields: readonly Field[]; isTopLevel?: boolean }) {
  const resolve = useResolveDataType();
  // Exactly the type's fields: every one present, so the JSON view shows the whole shape, and
  // none left over from another template or choice, which the server would refuse.
  const record = recordOfFields(value, fields, resolve);
  const isExact = isRecordOfFields(value, fields);
  useEffect(() => {
    if (!isExact) onChange(record);
  });
  const body = (
    <Stack gap="sm">
      {fields.length === 0 && (
        <Text size="sm" c="dimmed">
          No fields
        </Text>
      )}
      {fields.map((field) => (
        <DamlValueEditor
          key={field.name}
          type={field.type}
          value={record[field.name]}
          label={field.name}
          onChange={(next) => {
            onChange({ ...record, [field.name]: next });
          }}
        />
      ))}
    </Stack>
  );
  return isTopLevel ? body : <Fieldset legend={label}>{body}</Fieldset>;
}

function VariantEditor({
  value,
  onChange,
  label,
  constructors,
}: DamlValueEditorProps & { constructors: readonly Field[] }) {
  const resolve = useResolveDataType();
  const current = isRecord(value) && typeof value.tag === 'string' ? value.tag : null;
  const constructor = constructors.find((candidate) => candidate.name === current);
  const first = constructors[0];
  // A value made before the type was known (`{}`) has no tag: start from the first constructor.
  useEffect(() => {
    if (current === null && first) {
      onChange({ tag: first.name, value: defaultDamlValue(first.type, resolve) });
    }
  });
  return (
    <Fieldset legend={label}>
      <Stack gap="sm">
        <Select
          label={`${label} constructor`}
          data={constructors.map((candidate) => candidate.name)}
          value={current}
          allowDeselect={false}
          onChange={(tag) => {
            const chosen = constructors.find((candidate) => candidate.name === tag);
            if (chosen) {
              onChange({ tag: chosen.name, value: defaultDamlValue(chosen.type, resolve) });
            }
          }}
        />
        {constructor && isRecord(value) && (
          <DamlValueEditor
            type={constructor.type}
            value={value.value}
            label={`${label} ${constructor.name}`}
            onChange={(next) => {
              onChange({ tag: constructor.name, value: next });
            }}
          />
        )}
      </Stack>
    </Fieldset>
  );
}

function JsonValueEditor({ type, value, onChange, label }: DamlValueEditorProps) {
  const [text, setText] = useState(() => toJsonText(value));
  const [problem, setProblem] = useState<string>();
  return (
    <JsonInput
      label={label}
      description={`${formatType(type)}, as JSON`}
      value={text}
      autosize
      minRows={2}
      error={problem}
      onChange={(next) => {
        setText(next);
        try {
          onChange(JSON.parse(next) as unknown);
          setProblem(undefined);
        } catch {
          setProblem('Not valid JSON');
        }
      }}
    />
  );
}

export type ArgumentFormProps = {
  /** The record type of a template's or choice's argument. */
  type: DamlType;
  value: unknown;
  onChange: (value: unknown) => void;
  label: string;
};

/** The generated form of a template's or choice's argument: the record's fields, top-level. */
export function ArgumentForm({ type, value, onChange, label }: ArgumentFormProps) {
  if (type.kind !== 'con') {
    return <JsonValueEditor type={type} value={value} onChange={onChange} label={label} />;
  }
  return (
    <TopLevelRecord
      type={type}
      tycon={type.tycon}
      value={value}
      onChange={onChange}
      label={label}
    />
  );
}

function TopLevelRecord(props: DamlValueEditorProps & { tycon: TypeConName }) {
  const contents = useQuery({ ...packageQueries.contents(props.tycon.packageId), retry: false });
  if (contents.isPending) return <Loader size="sm" aria-label={`Loading ${props.label}`} />;
  const fields = contents.data ? recordFieldsOf([contents.data], props.type) : undefined;
  if (!fields) {
    return (
      <Alert color="yellow" title="No form for this type">
        The argument type {formatType(props.type)} could not be read; use the JSON view.
      </Alert>
    );
  }
  return <RecordEditor {...props} fields={fields} isTopLevel />;
}
