import { Anchor, Box, Group, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';

export type PageHeaderProps = {
  title: string;
  /** One line under the title: what the page is for, or whose it is. */
  description?: ReactNode;
  /** The page this one belongs to, e.g. `{ to: '/users', label: 'users' }` → "Back to users". */
  back?: { to: string; label: string };
  /** The page's own actions (Create…, Upload…), at the title's right; they wrap under it on phones. */
  actions?: ReactNode;
  /** Beside the title: a status badge and the like. */
  badges?: ReactNode;
};

/**
 * Every page's header, compact (docs/design-system.md §Page header): an optional back link, the
 * title with its badges, one dimmed line, and the page's actions at the right. Memoized: a list
 * page renders again on each page flip, its header need not (given stable `actions`).
 */
export const PageHeader = memo(function PageHeader({
  title,
  description,
  back,
  actions,
  badges,
}: PageHeaderProps) {
  return (
    <Stack gap={2} mb="md">
      {back !== undefined && (
        <Anchor
          component={Link}
          to={back.to}
          size="xs"
          c="dimmed"
          style={{ display: 'inline-flex', alignItems: 'center', gap: 2, width: 'fit-content' }}
        >
          <IconChevronLeft size={14} aria-hidden />
          Back to {back.label}
        </Anchor>
      )}
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {badges}
        </Group>
        {actions !== undefined && (
          <Group gap="xs" wrap="wrap">
            {actions}
          </Group>
        )}
      </Group>
      {description !== undefined && (
        <Box>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Box>
      )}
    </Stack>
  );
});
