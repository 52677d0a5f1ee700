import { Stack, Text } from '@mantine/core';
import { Identifier } from '@/components/identifier';

/** Parties of an event (signatories, observers, witnesses…), each linked to its party page. */
export function PartyList({ parties }: { parties: readonly string[] }) {
  if (parties.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {parties.map((party) => (
        <Identifier key={party} value={party} label={`party ${party}`} kind="party" />
      ))}
    </Stack>
  );
}
