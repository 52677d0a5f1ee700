import { Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header';

export function LivePage() {
  return (
    <Stack gap="lg">
      <PageHeader title="Live" description="Updates as the participant commits them." />
    </Stack>
  );
}
