import { Badge, Table, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { packagePreferenceQueries } from '@/api/package-preferences';
import type { VettedPackage } from '@/api/package-vetting';
import { describeError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import { predictPreference, type PreferenceRef } from './vetting-plan-model';

export type PreferenceRow = { party: string; packageName: string };

export type PreferenceReadinessProps = {
  rows: readonly PreferenceRow[];
  /** '' lets the participant use every synchronizer it is connected to. */
  synchronizerId: string;
  /** This participant's vetting now and after the change (a dry run's, or an upload's). */
  vettingBefore: readonly VettedPackage[];
  vettingAfter: readonly VettedPackage[];
  caption: string;
  emptyText: string;
};

const refText = (ref: PreferenceRef | undefined) =>
  ref ? `${ref.packageVersion || '?'} (${shortenIdentifier(ref.packageId)})` : 'none';

/**
 * Per party and package name: the version `preferred-packages` selects now (the participant's
 * answer) and after the change (predicted from this participant's vetting after it; see
 * predictPreference), and whether the party moves.
 */
export function PreferenceReadiness({
  rows,
  synchronizerId,
  vettingBefore,
  vettingAfter,
  caption,
  emptyText,
}: PreferenceReadinessProps) {
  const results = useQueries({
    queries: rows.map((row) => packagePreferenceQueries.preferred({ ...row, synchronizerId })),
  });
  // Vetting bounds are read at the time the view opened, as the participant's answer was.
  const [now] = useState(() => Date.now());
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }
  return (
    <Table aria-label={caption} verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Party</Table.Th>
          <Table.Th scope="col">Package name</Table.Th>
          <Table.Th scope="col">Now</Table.Th>
          <Table.Th scope="col">After</Table.Th>
          <Table.Th scope="col">Moves?</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, i) => {
          const result = results[i];
          const key = `${row.party}\n${row.packageName}`;
          const party = (
            <Table.Th scope="row" fw={400}>
              <Text size="sm" ff="monospace" title={row.party}>
                {shortenIdentifier(row.party)}
              </Text>
            </Table.Th>
          );
          if (!result?.data) {
            return (
              <Table.Tr key={key}>
                {party}
                <Table.Td>{row.packageName}</Table.Td>
                <Table.Td colSpan={3}>
                  <Text size="sm" c={result?.error ? 'red' : 'dimmed'}>
                    {result?.error
                      ? describeError(result.error).message
                      : 'Asking the participant…'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          }
          const before = result.data.kind === 'found' ? result.data.reference : undefined;
          const predicted = predictPreference(
            before,
            vettingBefore,
            vettingAfter,
            row.packageName,
            now,
          );
          const moves = predicted.after?.packageId !== before?.packageId;
          return (
            <Table.Tr key={key}>
              {party}
              <Table.Td>{row.packageName}</Table.Td>
              <Table.Td>
                <Text size="sm">{refText(before)}</Text>
                {result.data.kind === 'none' && (
                  <Text size="xs" c="dimmed" lineClamp={2} title={result.data.reason}>
                    {result.data.reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{refText(predicted.after)}</Text>
                {predicted.dependsOnOthers && (
                  <Text size="xs" c="dimmed">
                    if the other participants hosting the party allow it
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {!moves ? (
                  <Badge color="gray" variant="light" tt="none">
                    Stays
                  </Badge>
                ) : predicted.after ? (
                  <Badge color="blue" variant="light" tt="none">
                    Moves to {predicted.after.packageVersion}
                  </Badge>
                ) : (
                  <Badge color="red" variant="light" tt="none">
                    No package: its commands fail
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
