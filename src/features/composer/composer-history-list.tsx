import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { toCurlCommand } from '@/api/commands';
import { notify } from '@/components/feedback/notify';
import { SectionCard } from '@/components/section-card';
import { formatTime } from '@/lib/text/format';
import { describeRequest, MAX_HISTORY_ENTRIES, type HistoryEntry } from './composer-history';

export type ComposerHistoryProps = {
  entries: readonly HistoryEntry[];
  links: { transaction: (updateId: string) => string };
  isRerunning: boolean;
  onRerun: (entry: HistoryEntry) => void;
  onEdit: (entry: HistoryEntry) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
};

async function copyAsCurl(entry: HistoryEntry) {
  try {
    await navigator.clipboard.writeText(toCurlCommand(entry.request, window.location.origin));
    notify.success('curl command copied; set $TOKEN to a token before running it');
  } catch (error) {
    notify.error(error, 'Could not copy');
  }
}

/** Submissions made from this browser (kept locally, newest first). */
export function ComposerHistory({
  entries,
  links,
  isRerunning,
  onRerun,
  onEdit,
  onRemove,
  onClear,
}: ComposerHistoryProps) {
  return (
    <SectionCard title="History">
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          Submissions you make here are kept in this browser (the last {String(MAX_HISTORY_ENTRIES)}
          ), to run again, edit or copy as curl.
        </Text>
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" aria-label="Submission history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Submitted</Table.Th>
                  <Table.Th>Commands</Table.Th>
                  <Table.Th>Offset</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => {
                  const summary = describeRequest(entry.request);
                  return (
                    <Table.Tr key={entry.id}>
                      <Table.Td>
                        <Text size="sm">{formatTime(entry.submittedAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{summary}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={links.transaction(entry.updateId)}
                          size="sm"
                          aria-label={`Open the update at offset ${String(entry.offset)}`}
                        >
                          {String(entry.offset)}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="compact-xs"
                            variant="light"
                            disabled={isRerunning}
                            aria-label={`Run again: ${summary} (offset ${String(entry.offset)})`}
                            onClick={() => {
                              onRerun(entry);
                            }}
                          >
                            Run again
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="default"
                            aria-label={`Edit: ${summary} (offset ${String(entry.offset)})`}
                            onClick={() => {
                              onEdit(entry);
                            }}
                          >
                            Edit
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="default"
                            aria-label={`Copy as curl: ${summary} (offset ${String(entry.offset)})`}
                            onClick={() => void copyAsCurl(entry)}
                          >
                            Copy as curl
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="gray"
                            aria-label={`Forget: ${summary} (offset ${String(entry.offset)})`}
                            onClick={() => {
                              onRemove(entry.id);
                            }}
                          >
                            Forget
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group>
            <Button size="xs" variant="subtle" color="gray" onClick={onClear}>
              Clear history
            </Button>
          </Group>
        </Stack>
      )}
    </SectionCard>
  );
}
