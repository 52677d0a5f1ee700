import { Badge } from '@mantine/core';

export function IdentityProviderStatusBadge({ isDeactivated }: { isDeactivated: boolean }) {
  return (
    <Badge variant="light" color={isDeactivated ? 'gray' : 'green'} tt="none">
      {isDeactivated ? 'Deactivated' : 'Active'}
    </Badge>
  );
}
