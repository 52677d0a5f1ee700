import { Anchor, Text } from '@mantine/core';
import { IconFileUnknown } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { StatePanel } from '@/components/feedback/page-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/app/paths';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title="Page not found" />
      <StatePanel
        icon={IconFileUnknown}
        color="gray"
        title="No such page"
        actions={
          <Anchor component={Link} to={paths.overview.to()}>
            Go to the participant overview
          </Anchor>
        }
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          There is no page at{' '}
          <Text span ff="monospace">
            {pathname}
          </Text>
          .
        </Text>
      </StatePanel>
    </>
  );
}
