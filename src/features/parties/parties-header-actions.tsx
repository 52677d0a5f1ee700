import { Button, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access/access-rights';

export type PartiesHeaderActionsProps = { newPartyHref: string; newExternalPartyHref: string };

/**
 * "Allocate party" and "Allocate external party" (a party whose key the user holds) for callers who may allocate one. Reads the caller without suspending: while it
 * loads or if it fails, the header simply has no action, and the list below shows the error.
 */
export function PartiesHeaderActions({
  newPartyHref,
  newExternalPartyHref,
}: PartiesHeaderActionsProps) {
  const { data: caller } = useQuery(sessionQueries.caller());
  if (!caller || !accessOf(caller).canManageUsers) return null;
  return (
    <Group gap="sm">
      <Button component={Link} to={newPartyHref}>
        Allocate party
      </Button>
      <Button component={Link} to={newExternalPartyHref} variant="default">
        Allocate external party
      </Button>
    </Group>
  );
}
