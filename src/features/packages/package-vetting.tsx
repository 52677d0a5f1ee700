import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { packageQueries } from '@/api/packages';
import {
  type VettedPackage,
  type VettingChange,
  vettingQueries,
  vettingMutations,
} from '@/api/package-vetting';
import { sessionQueries } from '@/api/session';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { synchronizerQueries } from '@/api/synchronizers';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { Identifier } from '@/components/identifier';
import { accessOf } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import { vettingCopyAs } from './package-copy-as';
import { planSearch } from './vetting-plan-model';
import { useSynchronizerLabel } from '@/hooks/use-synchronizer-label';
import { buttonBusy } from '@/components/form/button-busy';

/** Why a caller sees no vetting actions (the participant would refuse the change). */
export const VETTING_NEEDS_ADMIN = 'Only participant administrators can change vetting.';

/** Why a synchronizer's row offers no change: vetting goes through the synchronizer. */
export const VETTING_NEEDS_CONNECTION =
  'Not connected: vetting can change only on a synchronizer this participant is connected to.';

type SynchronizerVetting = {
  synchronizerId: string;
  /** Its alias, or its shortened id (useSynchronizerLabel). */
  label: string;
  isConnected: boolean;
  /** This package's entry in the participant's vetting there, if vetted. */
  vetted: VettedPackage | undefined;
  /** The participant's last vetting serial there, for the change's concurrency check. */
  topologySerial: number | undefined;
};

/**
 * Where this participant has vetted the package, per synchronizer, with Vet and Unvet behind a
 * confirm step. A change names the vetting serial it was decided on, so a change made elsewhere
 * in between fails (TOPOLOGY_SERIAL_MISMATCH) instead of being overwritten.
 */
export function PackageVetting({
  packageId,
  vettingPlanHref,
}: {
  packageId: string;
  /** The vetting change planner with a plan (its URL query). */
  vettingPlanHref?: (search: string) => string;
}) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const { data: vetting } = useSuspenseQuery(vettingQueries.vetting());
  const { data: connected } = useSuspenseQuery(synchronizerQueries.connected());
  const { data: contents } = useQuery(packageQueries.contents(packageId));
  const change = useMutation(vettingMutations.updateVetting());
  const synchronizerLabel = useSynchronizerLabel();
  const notConnectedId = useId();
  const canChange = accessOf(caller).isParticipantAdmin;

  const vettedEntry = vetting
    .flatMap((entry) => entry.packages)
    .find((pkg) => pkg.packageId === packageId && pkg.packageName);
  const packageLabel = vettedEntry?.packageName
    ? `${vettedEntry.packageName} ${vettedEntry.packageVersion ?? ''}`.trim()
    : contents
      ? `${contents.name} ${contents.version}`
      : `package ${shortenIdentifier(packageId)}`;

  const synchronizerIds = [
    ...new Set([
      ...connected.map((synchronizer) => synchronizer.synchronizerId),
      ...vetting.map((entry) => entry.synchronizerId),
    ]),
  ];
  const rows: SynchronizerVetting[] = synchronizerIds.map((synchronizerId) => {
    const entry = vetting.find((candidate) => candidate.synchronizerId === synchronizerId);
    const synchronizer = connected.find((candidate) => candidate.synchronizerId === synchronizerId);
    return {
      synchronizerId,
      label: synchronizerLabel(synchronizerId),
      isConnected: synchronizer !== undefined,
      vetted: entry?.packages.find((pkg) => pkg.packageId === packageId),
      topologySerial: entry?.topologySerial,
    };
  });

  const askToChange = (row: SynchronizerVetting) => {
    const operation: VettingChange['operation'] = row.vetted ? 'Unvet' : 'Vet';
    const where = row.label;
    const request: VettingChange = {
      operation,
      packageId,
      synchronizerId: row.synchronizerId,
      expectedTopologySerial: row.topologySerial,
    };
    confirmDanger({
      title: `${operation} ${packageLabel} on ${where}?`,
      body: (
        <Stack gap="xs">
          <Text size="sm">
            {operation === 'Vet'
              ? `This participant will accept transactions that use ${packageLabel} on synchronizer ${where}.`
              : `This participant will no longer accept transactions that use ${packageLabel} on synchronizer ${where}, until it is vetted again. Packages that depend on it may have to be unvetted first.`}
          </Text>
          <Text size="xs" c="dimmed">
            Package <Code>{packageId}</Code>
          </Text>
          <Text size="xs" c="dimmed">
            Synchronizer <Code>{row.synchronizerId}</Code>
          </Text>
          {/* The exact request the confirm sends, serial included; curl only (see vettingCopyAs). */}
          <Group justify="flex-end">
            <CopyAsMenu commands={() => vettingCopyAs(request)} />
          </Group>
        </Stack>
      ),
      confirmLabel: `${operation} package`,
      color: operation === 'Vet' ? 'blue' : 'red',
      onConfirm: () => {
        change.mutate(request, {
          onSuccess: () => {
            notify.success(`${packageLabel} ${operation.toLowerCase()}ted on ${where}`);
          },
        });
      },
    });
  };

  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This participant is connected to no synchronizer, so there is nothing to vet on.
      </Text>
    );
  }

  // The change was decided on vetting that someone else changed meanwhile; the table is current
  // again (the failed change refreshed it), so the user can look and decide anew.
  const conflict =
    change.isError && describeError(change.error).code === 'TOPOLOGY_SERIAL_MISMATCH'
      ? change.variables
      : undefined;

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        A participant uses a package in transactions on a synchronizer only once it has vetted it
        there.
      </Text>
      {conflict && (
        <Alert color="orange" variant="light" title="The vetting changed meanwhile">
          The vetting on {synchronizerLabel(conflict.synchronizerId)} changed after this page showed
          it, so nothing was {conflict.operation === 'Vet' ? 'vetted' : 'unvetted'}. The table below
          shows the vetting as it is now: check it, then retry if the change is still needed.
        </Alert>
      )}
      <Table aria-label="Vetting per synchronizer" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Synchronizer</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            {canChange && (
              <Table.Th scope="col">
                <VisuallyHidden>Action</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const isChanging =
              change.isPending && change.variables.synchronizerId === row.synchronizerId;
            const describedBy = `${notConnectedId}-${row.synchronizerId}`;
            return (
              <Table.Tr key={row.synchronizerId}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {row.label}
                      {row.isConnected ? '' : ' (not connected)'}
                    </Text>
                    <Identifier
                      value={row.synchronizerId}
                      label={`synchronizer id ${row.synchronizerId}`}
                    />
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <VettingStatus vetted={row.vetted} />
                </Table.Td>
                {canChange && (
                  <Table.Td>
                    <Stack gap={2} align="flex-start">
                      <Button
                        size="xs"
                        variant="light"
                        color={row.vetted ? 'red' : 'blue'}
                        loading={buttonBusy(isChanging)}
                        disabled={!row.isConnected || (change.isPending && !isChanging)}
                        aria-label={`${row.vetted ? 'Unvet' : 'Vet'} on ${row.label}`}
                        {...(row.isConnected ? {} : { 'aria-describedby': describedBy })}
                        onClick={() => {
                          askToChange(row);
                        }}
                      >
                        {row.vetted ? 'Unvet' : 'Vet'}
                      </Button>
                      {row.isConnected && vettingPlanHref && (
                        <Button
                          component={Link}
                          size="xs"
                          variant="subtle"
                          to={vettingPlanHref(
                            planSearch({
                              plan: {
                                synchronizerId: row.synchronizerId,
                                changes: [
                                  row.vetted
                                    ? { operation: 'Unvet', packageId }
                                    : { operation: 'Vet', packageId },
                                ],
                                forceFlags: [],
                              },
                              parties: [],
                            }),
                          )}
                          aria-label={`Plan a change… on ${row.label}`}
                        >
                          Plan a change…
                        </Button>
                      )}
                      {!row.isConnected && (
                        <Text id={describedBy} size="xs" c="dimmed" maw={260}>
                          {VETTING_NEEDS_CONNECTION}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {!canChange && (
        <Text size="sm" c="dimmed">
          {VETTING_NEEDS_ADMIN}
        </Text>
      )}
    </Stack>
  );
}

function VettingStatus({ vetted }: { vetted: VettedPackage | undefined }) {
  if (!vetted) {
    return (
      <Badge color="gray" variant="light" tt="none">
        Not vetted
      </Badge>
    );
  }
  const from = vetted.validFromInclusive;
  const until = vetted.validUntilExclusive;
  return (
    <Stack gap={2}>
      <Badge color="teal" variant="light" tt="none">
        Vetted
      </Badge>
      {(from ?? until) && (
        <Text size="xs" c="dimmed">
          {from ? `from ${from}` : ''}
          {from && until ? ' ' : ''}
          {until ? `until ${until}` : ''}
        </Text>
      )}
    </Stack>
  );
}
