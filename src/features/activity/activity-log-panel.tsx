import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { participantQueries } from '@/api/participant';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { EmptyState } from '@/components/feedback/empty-state';
import {
  ACTIVITY_ACTIONS,
  matchesFilter,
  MAX_ACTIVITY_ENTRIES,
  NO_FILTER,
  type ActivityFilter,
} from '@/lib/activity/activity-log';
import { type ActivityAction } from '@/lib/activity/activity-spec';
import { formatCount } from '@/lib/text/format';
import { downloadActivity } from './activity-export';
import { useActivityLog } from './use-activity-log';
import { ActivityTable } from './activity-table';

/** Rows rendered at once; more on request, so 2000 entries never render in one go. */
const PAGE = 100;
const MAX_FILTER_LENGTH = 200;

const RESULT_OPTIONS = [
  { value: '', label: 'Any result' },
  { value: 'ok', label: 'Succeeded' },
  { value: 'error', label: 'Failed' },
];

const ACTION_OPTIONS = [
  { value: '', label: 'Any action' },
  ...ACTIVITY_ACTIONS.map((action) => ({ value: action, label: action })),
];

/** The signed-in identity's log on this participant: filter, export, clear. */
export function ActivityLogPanel() {
  const { data: participantId } = useSuspenseQuery(participantQueries.participantId());
  const { entries, clear } = useActivityLog(participantId);
  const [filter, setFilter] = useState<ActivityFilter>(NO_FILTER);
  const [limit, setLimit] = useState(PAGE);
  const shown = entries.filter((entry) => matchesFilter(entry, filter));

  const update = (change: Partial<ActivityFilter>) => {
    setFilter((current) => ({ ...current, ...change }));
    setLimit(PAGE);
  };

  if (entries.length === 0) {
    return (
      <EmptyState
        title="No activity yet"
        description="Changes you make in this console (users, rights, parties, identity providers, packages) are listed here, in this browser only."
      />
    );
  }

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Action"
          data={ACTION_OPTIONS}
          value={filter.action}
          allowDeselect={false}
          onChange={(value) => {
            update({ action: (value ?? '') as ActivityAction | '' });
          }}
        />
        <TextInput
          label="Subject"
          description="Part of a user, party, IdP or package id"
          value={filter.subject}
          maxLength={MAX_FILTER_LENGTH}
          onChange={(event) => {
            update({ subject: event.currentTarget.value });
          }}
        />
        <Select
          label="Result"
          data={RESULT_OPTIONS}
          value={filter.result}
          allowDeselect={false}
          onChange={(value) => {
            update({ result: value === 'ok' || value === 'error' ? value : '' });
          }}
        />
      </Group>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" role="status">
          {shown.length === entries.length
            ? formatCount(entries.length, 'entry', 'entries')
            : `${formatCount(shown.length, 'entry', 'entries')} of ${entries.length} match`}
          {` · the newest ${MAX_ACTIVITY_ENTRIES} are kept, in this browser only`}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            disabled={shown.length === 0}
            onClick={() => {
              downloadActivity('csv', shown);
            }}
          >
            Export CSV
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={shown.length === 0}
            onClick={() => {
              downloadActivity('json', shown);
            }}
          >
            Export JSON
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={() => {
              confirmDanger({
                title: 'Clear the activity log?',
                body: `All ${formatCount(entries.length, 'entry', 'entries')} of your activity on this participant are removed from this browser. Export them first to keep them. The changes themselves stay.`,
                confirmLabel: 'Clear log',
                onConfirm: clear,
              });
            }}
          >
            Clear log
          </Button>
        </Group>
      </Group>
      {shown.length === 0 ? (
        <Text size="sm">No entries match these filters.</Text>
      ) : (
        <ActivityTable label="Activity" entries={shown.slice(0, limit)} />
      )}
      {shown.length > limit && (
        <Button
          variant="default"
          onClick={() => {
            setLimit((current) => current + PAGE);
          }}
        >
          Show {Math.min(PAGE, shown.length - limit)} more
        </Button>
      )}
    </Stack>
  );
}
