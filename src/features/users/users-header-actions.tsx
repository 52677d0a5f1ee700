import { Button, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access/access-rights';

export type UsersHeaderActionsProps = {
  newUserHref: string;
  /** The bulk import page, for many people at once. */
  importHref?: string;
};

/**
 * "Create user" (and "Import users") for callers who may create users. Reads the caller without
 * suspending: while it loads or if it fails, the header simply has no action, and the list below
 * shows the error.
 */
export function UsersHeaderActions({ newUserHref, importHref }: UsersHeaderActionsProps) {
  const { data: caller } = useQuery(sessionQueries.caller());
  if (!caller || !accessOf(caller).canManageUsers) return null;
  return (
    <Group gap="sm">
      {importHref !== undefined && (
        <Button component={Link} to={importHref} variant="default">
          Import users
        </Button>
      )}
      <Button component={Link} to={newUserHref}>
        Create user
      </Button>
    </Group>
  );
}
