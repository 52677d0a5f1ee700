import { AUDIT_ACTIONS } from '@ledger-console/edge/console-api';
import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import {
  AUDIT_WINDOWS,
  MAX_AUDIT_ACTOR_CHARS,
  MAX_AUDIT_TEXT_CHARS,
  type AuditFilter,
  type AuditWindow,
} from '@/lib/activity/audit-log';

export type AuditFiltersProps = {
  filter: AuditFilter;
  /** Every change goes to the URL; the page passes it back as `filter`. */
  onFilterChange: (change: Partial<AuditFilter>) => void;
};

const WINDOW_LABELS: Record<AuditWindow, string> = {
  '': 'Any time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  custom: 'Between…',
};
const WINDOW_OPTIONS = AUDIT_WINDOWS.map((value) => ({ value, label: WINDOW_LABELS[value] }));

const ACTION_OPTIONS = [
  { value: '', label: 'Any action' },
  ...AUDIT_ACTIONS.map((action) => ({ value: action, label: action })),
];

const OUTCOME_OPTIONS = [
  { value: '', label: 'Any result' },
  { value: 'ok', label: 'Succeeded' },
  { value: 'failed', label: 'Failed' },
];

const TYPING_DELAY_MS = 400;

/** An ISO time as a `datetime-local` input shows it: the browser's local time, to the minute. */
function toLocalInput(iso: string): string {
  if (iso === '') return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** What a `datetime-local` input holds (local time) as ISO; '' when empty or unreadable. */
function fromLocalInput(value: string): string {
  const ms = Date.parse(value);
  return value === '' || !Number.isFinite(ms) ? '' : new Date(ms).toISOString();
}

/**
 * A text filter applied after a pause in typing. What is typed stays as typed while its request
 * is on the way; a value the URL gets from elsewhere (Back, Forward, a link) replaces it.
 */
function TypedFilter({
  label,
  description,
  value,
  maxLength,
  onCommit,
}: {
  label: string;
  description: string;
  /** The applied value, from the URL. */
  value: string;
  maxLength: number;
  onCommit: (value: string) => void;
}) {
  const [typed, setTyped] = useState(value);
  const [applied, setApplied] = useState(value);
  // The last value this field applied: the URL coming back with it is no news.
  const [sent, setSent] = useState(value);
  const commit = useDebouncedCallback((next: string) => {
    setSent(next);
    onCommit(next);
  }, TYPING_DELAY_MS);
  if (value !== applied) {
    // Adjusting state while rendering, as React documents for props that change.
    setApplied(value);
    if (value !== sent) {
      setSent(value);
      setTyped(value);
    }
  }
  return (
    <TextInput
      label={label}
      description={description}
      value={typed}
      maxLength={maxLength}
      onChange={(event) => {
        setTyped(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
    />
  );
}

/** The shared log's filters. Lists apply at once, typed text after a pause. */
export function AuditFilters({ filter, onFilterChange }: AuditFiltersProps) {
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label="Time"
        data={WINDOW_OPTIONS}
        value={filter.window}
        allowDeselect={false}
        maw={FIELD_WIDTH.short}
        onChange={(value) => {
          onFilterChange({ window: value ?? '' });
        }}
      />
      {filter.window === 'custom' && (
        <>
          <TextInput
            type="datetime-local"
            label="From"
            description="Your local time"
            value={toLocalInput(filter.from)}
            onChange={(event) => {
              onFilterChange({ from: fromLocalInput(event.currentTarget.value) });
            }}
          />
          <TextInput
            type="datetime-local"
            label="To"
            description="Up to, not including"
            value={toLocalInput(filter.to)}
            onChange={(event) => {
              onFilterChange({ to: fromLocalInput(event.currentTarget.value) });
            }}
          />
        </>
      )}
      <TypedFilter
        label="Actor"
        description="User id or token subject"
        value={filter.actor}
        maxLength={MAX_AUDIT_ACTOR_CHARS}
        onCommit={(actor) => {
          onFilterChange({ actor });
        }}
      />
      <Select
        label="Action"
        data={ACTION_OPTIONS}
        value={filter.action}
        allowDeselect={false}
        searchable
        onChange={(value) => {
          onFilterChange({ action: (value ?? '') as AuditFilter['action'] });
        }}
      />
      <Select
        label="Result"
        data={OUTCOME_OPTIONS}
        value={filter.outcome}
        allowDeselect={false}
        maw={FIELD_WIDTH.short}
        onChange={(value) => {
          onFilterChange({ outcome: value === 'ok' || value === 'failed' ? value : '' });
        }}
      />
      <TypedFilter
        label="Contains"
        description="Part of the path, resource or summary"
        value={filter.text}
        maxLength={MAX_AUDIT_TEXT_CHARS}
        onCommit={(text) => {
          onFilterChange({ text });
        }}
      />
    </Group>
  );
}
