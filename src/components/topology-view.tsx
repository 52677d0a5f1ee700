import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { TopologyTransactionView, TopologyView } from '@/lib/signing/external-party-topology';
import { Identifier } from './identifier';
import { PropertyList } from './property-list';

export type TopologyViewPanelProps = {
  view: TopologyView;
  /** The party id and key fingerprint the participant answered, shown beside the decoded bytes. */
  partyId: string;
  fingerprint: string;
  /** This participant's id, to mark it among the hosting participants. */
  ownParticipantId?: string;
};

/**
 * What an external party's key is asked to sign, as decoded in the browser from the topology
 * transactions' bytes, and the multi-hash recomputed from them beside the participant's.
 */
export function TopologyViewPanel({
  view,
  partyId,
  fingerprint,
  ownParticipantId,
}: TopologyViewPanelProps) {
  return (
    <Stack gap="md">
      <PropertyList
        items={[
          {
            label: 'Party id',
            value: <Identifier value={partyId} label="party id" isShortened={false} />,
          },
          {
            label: 'Key fingerprint',
            value: <Identifier value={fingerprint} label="key fingerprint" isShortened={false} />,
          },
          {
            label: 'Multi-hash (hex)',
            value: (
              <Identifier value={view.multiHash.hex} label="multi-hash (hex)" isShortened={false} />
            ),
          },
          {
            label: 'Multi-hash (base64)',
            value: (
              <Identifier
                value={view.multiHash.base64}
                label="multi-hash (base64)"
                isShortened={false}
              />
            ),
          },
          {
            label: 'Multi-hash check',
            value: view.isMultiHashMatching ? (
              <Group gap="xs">
                <Badge color="green" variant="light">
                  Matches
                </Badge>
                <Text size="sm">
                  Recomputed in this browser from the transactions below: the participant&apos;s
                  multi-hash is the same.
                </Text>
              </Group>
            ) : (
              <Group gap="xs">
                <Badge color="red" variant="light">
                  Does not match
                </Badge>
                <Text size="sm">
                  The participant&apos;s multi-hash is not the hash of these transactions. Do not
                  sign it.
                </Text>
              </Group>
            ),
          },
        ]}
      />
      {view.transactions.map((transaction, index) => (
        <TransactionView
          // The transactions have no id but their place; their order is what was sent.
          key={index}
          index={index}
          transaction={transaction}
          {...(ownParticipantId === undefined ? {} : { ownParticipantId })}
        />
      ))}
    </Stack>
  );
}

function TransactionView({
  index,
  transaction,
  ownParticipantId,
}: {
  index: number;
  transaction: TopologyTransactionView;
  ownParticipantId?: string;
}) {
  const { mapping } = transaction;
  const title = `Topology transaction ${String(index + 1)}: ${mapping.kind === 'PartyToParticipant' ? 'PartyToParticipant' : mapping.name}`;
  return (
    <Stack gap="xs" role="region" aria-label={title}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <Text size="sm">
        {transaction.operation}, serial {transaction.serial}
      </Text>
      {mapping.kind === 'PartyToParticipant' && (
        <>
          <PropertyList
            items={[
              {
                label: 'Party',
                value: <Identifier value={mapping.party} label="hosted party" />,
              },
              {
                label: 'Confirmation threshold',
                value: <Text size="sm">{mapping.threshold}</Text>,
              },
            ]}
          />
          <Table aria-label="Hosting participants" withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Participant</Table.Th>
                <Table.Th>Permission</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mapping.participants.map(({ participantUid, permission }) => (
                <Table.Tr key={participantUid}>
                  <Table.Td>
                    <Identifier value={participantUid} label={`participant ${participantUid}`} />
                    {participantUid === ownParticipantId && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        (this participant)
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{permission}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {mapping.participantsLeftOut > 0 && (
            <Text size="sm" c="dimmed">
              and {mapping.participantsLeftOut} more participants, not shown
            </Text>
          )}
          {mapping.signingKeys === undefined ? (
            <Text size="sm">No party signing keys in this transaction.</Text>
          ) : (
            <>
              <Table aria-label="Party signing keys" withTableBorder fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Key fingerprint</Table.Th>
                    <Table.Th>Spec</Table.Th>
                    <Table.Th>Usage</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {mapping.signingKeys.keys.map((key) => (
                    <Table.Tr key={key.fingerprint}>
                      <Table.Td>
                        <Identifier value={key.fingerprint} label={`key ${key.fingerprint}`} />
                      </Table.Td>
                      <Table.Td>{key.keySpec}</Table.Td>
                      <Table.Td>{key.usages.join(', ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Text size="sm">
                Signing threshold: {mapping.signingKeys.threshold} of{' '}
                {mapping.signingKeys.keys.length + mapping.signingKeys.keysLeftOut} keys
              </Text>
            </>
          )}
        </>
      )}
      <Text size="xs" c="dimmed">
        Transaction hash {transaction.hash}
      </Text>
    </Stack>
  );
}
