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
 * The shared log's filters. Lists apply at once; typed text after a pause, and stays as typed
 * while its request is on the way.
 */
export function AuditFilters({ filter, onFilterChange }: AuditFiltersProps) {
  const [actor, setActor] = useState(filter.actor);
  const [text, setText] = useState(filter.text);
  const commitActor = useDebouncedCallback((value: string) => {
    onFilterChange({ actor: value });
  }, TYPING_DELAY_MS);
  const commitText = useDebouncedCallback((value: string) => {
    onFilterChange({ text: value });
  }, TYPING_DELAY_MS);

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
      <TextInput
        label="Actor"
        description="User id or token subject"
        value={actor}
        maxLength={MAX_AUDIT_ACTOR_CHARS}
        onChange={(event) => {
          setActor(event.currentTarget.value);
          commitActor(event.currentTarget.value);
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
      <TextInput
        label="Contains"
        description="Part of the path or summary"
        value={text}
        maxLength={MAX_AUDIT_TEXT_CHARS}
        onChange={(event) => {
          setText(event.currentTarget.value);
          commitText(event.currentTarget.value);
        }}
      />
    </Group>
  );
}
