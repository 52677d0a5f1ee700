import { Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header';

export function ContractsPage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Active contracts"
        description="The contracts that parties you can read as hold, at the ledger end or at an offset."
      />
    </Stack>
  );
}
