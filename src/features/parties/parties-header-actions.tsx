import { Button } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access-rights';

export type PartiesHeaderActionsProps = { newPartyHref: string };

/**
 * "Allocate party" for callers who may allocate one. Reads the caller without suspending: while it
 * loads or if it fails, the header simply has no action, and the list below shows the error.
 */
export function PartiesHeaderActions({ newPartyHref }: PartiesHeaderActionsProps) {
  const { data: caller } = useQuery(sessionQueries.caller());
  if (!caller || !accessOf(caller).canManageUsers) return null;
  return (
    <Button component={Link} to={newPartyHref}>
      Allocate party
    </Button>
  );
}
