import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { accessOf } from '@/lib/access/access-rights';

export type PackagesHeaderActionsProps = { uploadDarHref: string; vettingPlanHref?: string };

/** Why a caller sees no upload button (the participant would refuse the upload). */
export const UPLOAD_NEEDS_ADMIN = 'Only participant administrators can upload DARs.';

/**
 * "Upload DAR" for participant admins, the reason instead for everyone else. Reads the caller
 * without suspending: while it loads or if it fails, the header has no action.
 */
export function PackagesHeaderActions({
  uploadDarHref,
  vettingPlanHref,
}: PackagesHeaderActionsProps) {
  const { data: caller } = useQuery(sessionQueries.caller());
  if (!caller) return null;
  if (!accessOf(caller).isParticipantAdmin) {
    return (
      <Text size="sm" c="dimmed" maw={260}>
        {UPLOAD_NEEDS_ADMIN}
      </Text>
    );
  }
  return (
    <Group gap="sm">
      {vettingPlanHref !== undefined && (
        <Button component={Link} to={vettingPlanHref} variant="default">
          Plan a vetting change
        </Button>
      )}
      <Button component={Link} to={uploadDarHref}>
        Upload DAR
      </Button>
    </Group>
  );
}
