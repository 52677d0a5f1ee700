import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { paths } from '@/app/paths';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" align="flex-start">
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text>
        There is no page at{' '}
        <Text span ff="monospace">
          {pathname}
        </Text>
        .
      </Text>
      <Anchor component={Link} to={paths.overview.to()}>
        Go to the participant overview
      </Anchor>
    </Stack>
  );
}
