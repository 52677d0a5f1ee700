import { Alert, Anchor, Badge, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import {
  FLEET_POLL_MS,
  fleetQueries,
  MAX_FLEET_PARTIES,
  type HostedParties,
} from '@/api/fleet-overview';
import { isSignedInOn, participantListQueries, type FleetParticipant } from '@/api/participants';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { Identifier } from '@/components/identifier';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { usePageFleet } from '@/hooks/use-page-fleet';
import { describeError, isMaskedRefusal, isParticipantUnreachable } from '@/lib/errors/api-error';
import { partiesOnSeveral } from '@/lib/fleet/fleet-facts';
import { useLedgerMovement } from './use-ledger-movement';

const inline = { meta: { errorDisplay: 'inline' } } as const;
const polled = { ...inline, refetchInterval: FLEET_POLL_MS } as const;

export type FleetOverviewProps = {
  /** The page to come back to after signing in on another participant (this one's path). */
  returnPath: string;
  /** The sign-in page's path within a participant's pages, with `from`. */
  signInPath: (from: string) => string;
};

/**
 * Every participant of the console side by side: health, version, id, ledger end and its
 * movement, synchronizers and hosted parties, each read through its own client and token, so one
 * participant that is down or not signed in to holds up nothing of the others.
 */
export function FleetOverview({ returnPath, signInPath }: FleetOverviewProps) {
  const list = useQuery({ ...participantListQueries.list(), ...inline });
  const current = usePageFleet()?.current.name;
  if (list.isPending) return <SectionSkeleton />;
  if (list.isError) return <ErrorAlert error={list.error} />;
  const { participants } = list.data;

  return (
    <Stack>
      {participants.length < 2 && (
        <Text size="sm" c="dimmed">
          This console addresses one participant. Start it with several (
          <code>--ledger NAME=URL</code>, repeated, or <code>--participants N</code>) to see a fleet
          here.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        {participants.map((participant) => (
          <ParticipantCard
            key={participant.name}
            participant={participant}
            isCurrent={participant.name === current}
            signInHref={`${participant.pagePath}${signInPath(returnPath)}`}
          />
        ))}
      </SimpleGrid>
      <SharedParties participants={participants} />
    </Stack>
  );
}

type Access = { kind: 'ok' } | { kind: 'signed-out' } | { kind: 'refused'; error: unknown };

/** Whether the caller may read the participant, from a read that needs a sign-in. */
function accessOf(name: string, error: unknown): Access {
  if (!isMaskedRefusal(error)) return { kind: 'ok' };
  return isSignedInOn(name) ? { kind: 'refused', error } : { kind: 'signed-out' };
}

function ParticipantCard({
  participant,
  isCurrent,
  signInHref,
}: {
  participant: FleetParticipant;
  isCurrent: boolean;
  signInHref: string;
}) {
  const { name } = participant;
  const titleId = useId();
  const liveness = useQuery({ ...fleetQueries.liveness(name), ...polled });
  const readiness = useQuery({ ...fleetQueries.readiness(name), ...polled });
  const version = useQuery({ ...fleetQueries.version(name), ...inline });
  const participantId = useQuery({ ...fleetQueries.participantId(name), ...inline, retry: false });
  const ledgerEnd = useQuery({ ...fleetQueries.ledgerEnd(name), ...polled, retry: false });
  const synchronizers = useQuery({ ...fleetQueries.synchronizers(name), ...inline, retry: false });
  const parties = useQuery({ ...fleetQueries.hostedParties(name), ...inline, retry: false });
  const movement = useLedgerMovement(ledgerEnd.data, ledgerEnd.dataUpdatedAt);

  const unreachable = (() => {
    const error = liveness.error ?? version.error;
    if (error && isParticipantUnreachable(error)) return describeError(error).message;
    if (liveness.data?.unreachable) return liveness.data.detail;
    return undefined;
  })();
  const health = (() => {
    if (unreachable !== undefined) return { color: 'red', text: 'Unreachable' };
    if (liveness.isError || readiness.isError) return { color: 'red', text: 'No answer' };
    if (!liveness.data || !readiness.data) return { color: 'gray', text: 'Checking…' };
    if (!liveness.data.isHealthy) return { color: 'red', text: 'Not live' };
    if (!readiness.data.isHealthy) return { color: 'orange', text: 'Not ready' };
    return { color: 'green', text: 'Live · Ready' };
  })();
  const access = accessOf(name, participantId.error ?? ledgerEnd.error ?? parties.error);
  const pageHref = `${participant.pagePath}/`;

  return (
    <Stack
      component="section"
      aria-labelledby={titleId}
      gap="sm"
      p="md"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="xs" wrap="wrap">
          <Title order={2} size="h4" id={titleId}>
            {name}
          </Title>
          {participant.isDefault && (
            <Badge variant="outline" color="gray" size="sm">
              default
            </Badge>
          )}
          {isCurrent && (
            <Badge variant="light" size="sm">
              this page
            </Badge>
          )}
        </Group>
        <Badge color={health.color} variant="dot" aria-label={`Health: ${health.text}`}>
          {health.text}
        </Badge>
      </Group>
      {unreachable !== undefined && (
        <Alert color="red" variant="light" title={`${name} is unreachable`}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {unreachable}
          </Text>
        </Alert>
      )}
      {unreachable === undefined && access.kind === 'signed-out' && (
        <Alert color="blue" variant="light" title={`Not signed in on ${name}`}>
          <Text size="sm">
            Signing in is per participant: {name} needs a sign-in of its own.{' '}
            <Anchor href={signInHref}>Sign in on {name}</Anchor>
          </Text>
        </Alert>
      )}
      {unreachable === undefined && access.kind === 'refused' && (
        <Alert color="orange" variant="light" title={`${name} refused the sign-in kept for it`}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {describeError(access.error).message}{' '}
            <Anchor href={signInHref}>Sign in on {name} again</Anchor>
          </Text>
        </Alert>
      )}
      <PropertyList
        items={[
          { label: 'Version', value: version.data?.version ?? <Pending query={version} /> },
          {
            label: 'Participant id',
            value:
              participantId.data === undefined ? (
                <Pending query={participantId} />
              ) : (
                <Identifier value={participantId.data} label={`${name} participant id`} />
              ),
          },
          {
            label: 'Ledger end',
            value:
              ledgerEnd.data === undefined ? (
                <Pending query={ledgerEnd} />
              ) : (
                <Text size="sm">
                  {ledgerEnd.data.toLocaleString('en')}
                  <Text span size="sm" c="dimmed">
                    {movement === undefined
                      ? ' · measuring movement…'
                      : ` · +${movement.added.toLocaleString('en')} in the last ${String(movement.seconds)} s`}
                  </Text>
                </Text>
              ),
          },
          {
            label: 'Connected synchronizers',
            value:
              synchronizers.data === undefined ? (
                <Pending query={synchronizers} />
              ) : synchronizers.data.length === 0 ? (
                <Text size="sm">None</Text>
              ) : (
                <Stack gap={2}>
                  {synchronizers.data.map((synchronizer) => (
                    <Identifier
                      key={synchronizer.synchronizerId}
                      value={synchronizer.synchronizerId}
                      label={`${name} synchronizer id`}
                    />
                  ))}
                </Stack>
              ),
          },
          {
            label: 'Parties hosted',
            value:
              parties.data === undefined ? (
                <Pending query={parties} />
              ) : (
                <Text size="sm">{hostedText(parties.data)}</Text>
              ),
          },
        ]}
      />
      <Anchor href={pageHref} size="sm">
        Open {name}
      </Anchor>
    </Stack>
  );
}

function hostedText({ parties, isCapped }: HostedParties): string {
  const count = parties.length.toLocaleString('en');
  return isCapped
    ? `${count} among the first ${MAX_FLEET_PARTIES.toLocaleString('en')} parties it knows (more not read)`
    : count;
}

/** A fact not read yet, or why it could not be (a sign-in is said once, above). */
function Pending({ query }: { query: { isError: boolean; error: unknown } }) {
  if (!query.isError) {
    return (
      <Text size="sm" c="dimmed">
        Reading…
      </Text>
    );
  }
  const { error } = query;
  const text = isMaskedRefusal(error)
    ? 'Needs a sign-in'
    : isParticipantUnreachable(error)
      ? 'No answer'
      : describeError(error).message;
  return (
    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

/** The parties hosted on more than one participant, from what each participant answered. */
function SharedParties({ participants }: { participants: readonly FleetParticipant[] }) {
  const results = useQueries({
    queries: participants.map((participant) => ({
      ...fleetQueries.hostedParties(participant.name),
      ...inline,
      retry: false,
    })),
  });
  const known = participants.flatMap((participant, index) => {
    const data = results[index]?.data;
    return data === undefined ? [] : [{ participant: participant.name, parties: data.parties }];
  });
  const capped = participants.filter((_, index) => results[index]?.data?.isCapped === true);
  const missing = participants.filter((_, index) => results[index]?.data === undefined);
  const shared = partiesOnSeveral(known);

  return (
    <SectionCard title="Parties hosted on more than one participant">
      <Stack gap="sm">
        {missing.length > 0 && (
          <Text size="sm" c="dimmed">
            Without {missing.map((participant) => participant.name).join(', ')}: not read (yet).
          </Text>
        )}
        {capped.length > 0 && (
          <Text size="sm" c="dimmed">
            Of {capped.map((participant) => participant.name).join(', ')}, only the first{' '}
            {MAX_FLEET_PARTIES.toLocaleString('en')} parties were read.
          </Text>
        )}
        {shared.length === 0 ? (
          <Text size="sm">
            {known.length < 2
              ? 'Needs the parties of two participants or more.'
              : 'Every party read is hosted on one participant only.'}
          </Text>
        ) : (
          <Table aria-label="Parties hosted on more than one participant">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Party</Table.Th>
                <Table.Th>Hosted on</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shared.map(({ party, participants: hosts }) => (
                <Table.Tr key={party}>
                  <Table.Td>
                    <Identifier value={party} label="party id" />
                  </Table.Td>
                  <Table.Td>{hosts.join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </SectionCard>
  );
}
