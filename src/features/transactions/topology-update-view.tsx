import { Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { Identifier } from '@/components/identifier';
import { RelativeTime } from '@/components/relative-time';
import { SectionCard } from '@/components/section-card';
import { hostingEventText } from '@/lib/transaction-tree/party-hosting';
import { idHint, type TopologySummary } from '@/lib/transaction-tree/update-summary';
import classes from './transaction-viewer.module.css';

/**
 * A topology transaction's page: which party is now hosted where, with which permission, or no
 * longer, in plain words (this participant named as such), full ids beside each line.
 */
export function TopologyUpdateView({ summary }: { summary: TopologySummary }) {
  const { data: participantId } = useQuery(participantQueries.participantId());
  const participant = (id: string) =>
    id === participantId ? `${idHint(id)} (this participant)` : idHint(id);
  return (
    <Stack gap="md">
      <header className={classes.header}>
        <Title order={2} size="h4">
          Topology transaction at offset {summary.offset}
        </Title>
        <div className={classes.metaRow}>
          <Group gap={6}>
            <Text span size="xs" c="dimmed">
              Update id
            </Text>
            <Identifier value={summary.updateId} label="update id" />
          </Group>
          {summary.recordTime && (
            <Group gap={6}>
              <Text span size="xs" c="dimmed">
                Record time
              </Text>
              <RelativeTime value={summary.recordTime} />
            </Group>
          )}
          {summary.synchronizerId !== '' && (
            <Group gap={6}>
              <Text span size="xs" c="dimmed">
                Synchronizer
              </Text>
              <Identifier value={summary.synchronizerId} label="synchronizer id" />
            </Group>
          )}
        </div>
      </header>
      <SectionCard title="Hosting changes">
        {summary.events.length === 0 ? (
          <Text size="sm">No participant authorization events you can read.</Text>
        ) : (
          <List spacing="sm" aria-label="Hosting changes">
            {summary.events.map((event, index) => (
              <List.Item key={`${event.partyId}/${event.participantId}/${String(index)}`}>
                <Stack gap={2}>
                  <Text size="sm">{hostingEventText(event, { participant, party: idHint })}</Text>
                  <Group gap="md">
                    <Identifier value={event.partyId} label="party id" kind="party" />
                    <Identifier value={event.participantId} label="participant id" />
                  </Group>
                </Stack>
              </List.Item>
            ))}
          </List>
        )}
      </SectionCard>
    </Stack>
  );
}
