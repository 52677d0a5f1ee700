import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fleetReadQueries, type Projection } from '@/api/fleet-reads';
import { describeError } from '@/lib/errors/api-error';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import {
  absentExplanation,
  compareProjections,
  partiesToLookUp,
  type PartyHosting,
} from '@/lib/transaction-tree/projection-comparison';
import { ProjectionComparisonView } from './projection-comparison-view';

export type CompareProjectionsProps = {
  /** The transaction as this page's participant shows it. */
  tree: TransactionTree;
  /** This page's participant's fleet name. */
  here: string;
  /** The participant compared with. */
  there: string;
  /** Its sign-in page, coming back to this comparison. */
  signInHref: string;
};

/**
 * The same update as another participant shows it to the user signed in there, compared with
 * this one (projection-comparison.ts); or, where it has none, why in words: not signed in there,
 * no party to read, or none of the transaction's informees hosted there.
 */
export function CompareProjections({ tree, here, there, signInHref }: CompareProjectionsProps) {
  const projection = useQuery(fleetReadQueries.projection(there, tree.updateId));
  const status = projection.data?.status;
  const otherTree = projection.data?.status === 'found' ? projection.data.tree : undefined;
  const parties = useMemo(
    () => partiesToLookUp(otherTree ? [tree, otherTree] : [tree]),
    [tree, otherTree],
  );
  const needsHosting = (status === 'found' || status === 'absent') && parties.length > 0;
  const hostingHere = useQuery({
    ...fleetReadQueries.hosting(here, parties),
    enabled: needsHosting,
  });
  const hostingThere = useQuery({
    ...fleetReadQueries.hosting(there, parties),
    enabled: needsHosting,
  });
  const isHostingPending = needsHosting && (hostingHere.isPending || hostingThere.isPending);
  const names = useMemo(() => ({ here, there }), [here, there]);
  const hosting = useMemo(
    () => combineHosting(parties, hostingHere.data, hostingThere.data),
    [parties, hostingHere.data, hostingThere.data],
  );
  const comparison = useMemo(
    () => otherTree && !isHostingPending && compareProjections(tree, otherTree, hosting, names),
    [tree, otherTree, isHostingPending, hosting, names],
  );

  if (projection.isError) {
    const description = describeError(projection.error);
    return (
      <Alert color="red" title={`${there} did not answer: ${description.title}`}>
        {description.message}
      </Alert>
    );
  }
  if (!projection.data || isHostingPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Asking {there}…</Text>
      </Group>
    );
  }
  const unknownHosting = [
    ...(hostingHere.data === null && needsHosting ? [here] : []),
    ...(hostingThere.data === null && needsHosting ? [there] : []),
  ];
  const hostingNote = unknownHosting.length > 0 && (
    <Text size="sm" c="dimmed">
      Where parties are hosted could not be read on {unknownHosting.join(' and ')} (listing parties
      needs an administrator there), so some reasons say “hosting unknown”.
    </Text>
  );
  if (comparison) {
    return (
      <Stack gap="xs">
        {hostingNote}
        <ProjectionComparisonView comparison={comparison} />
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <MissingProjection
        projection={projection.data}
        tree={tree}
        hosting={hosting}
        names={names}
        signInHref={signInHref}
      />
      {status === 'absent' && hostingNote}
    </Stack>
  );
}

function MissingProjection({
  projection,
  tree,
  hosting,
  names,
  signInHref,
}: {
  projection: Projection;
  tree: TransactionTree;
  hosting: PartyHosting;
  names: { here: string; there: string };
  signInHref: string;
}) {
  switch (projection.status) {
    case 'signed-out':
      return (
        <Alert color="yellow" title={`You are not signed in on ${names.there}`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Signing in is per participant: {names.there} shows its projection of this transaction
              only to a user signed in there.
            </Text>
            <Button component="a" href={signInHref} size="xs" variant="light">
              Sign in on {names.there}
            </Button>
          </Stack>
        </Alert>
      );
    case 'no-read-scope':
      return (
        <Alert color="yellow" title={`Your user on ${names.there} may not read any party`}>
          It needs a right to read as a party (or as any party) there to see transactions.
        </Alert>
      );
    case 'not-a-transaction':
      return (
        <Alert color="yellow" title={`Not a transaction on ${names.there}`}>
          There this id names a reassignment or a topology transaction.
        </Alert>
      );
    case 'absent':
      return (
        <Alert color="gray" title={`${names.there} has no such update for you`}>
          {absentExplanation(tree, hosting, names)}
        </Alert>
      );
    case 'found':
      return null;
  }
}

function combineHosting(
  parties: readonly string[],
  here: ReadonlyMap<string, boolean> | null | undefined,
  there: ReadonlyMap<string, boolean> | null | undefined,
): PartyHosting {
  return new Map(
    parties.map((party) => [party, { here: here?.get(party), there: there?.get(party) }]),
  );
}
