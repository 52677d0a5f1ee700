import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';

export type StatCardProps = {
  title: string;
  /** The pages the figure is about, each named by where it goes: "Users". */
  links?: readonly { to: string; label: string }[];
  /** Reads with suspense: its loading, error and refusal stay inside this card. */
  children: ReactNode;
};

/**
 * One figure of the overview: a small titled region with its own QueryBoundary, so a card the
 * participant refuses or fails does not take the others with it.
 */
export function StatCard({ title, links = [], children }: StatCardProps) {
  const titleId = useId();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={2} size="h6" id={titleId} c="dimmed" fw={600}>
            {title}
          </Title>
          {links.length > 0 && (
            <Group gap="sm">
              {links.map((link) => (
                <Anchor key={link.to} component={Link} to={link.to} size="sm">
                  {link.label}
                </Anchor>
              ))}
            </Group>
          )}
        </Group>
        <QueryBoundary fallback={<SectionSkeleton lines={2} />}>{children}</QueryBoundary>
      </Stack>
    </Card>
  );
}

export type StatValueProps = {
  /** The figure itself: "1,204", "1000+", "None". */
  value: string;
  /** One dimmed line on what it counts or how it moves. */
  detail?: ReactNode;
  /** Beside the figure, e.g. a sparkline. */
  aside?: ReactNode;
};

export function StatValue({ value, detail, aside }: StatValueProps) {
  return (
    <Stack gap={2}>
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="sm">
        <Text fz={28} fw={700} lh={1.1} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {value}
        </Text>
        {aside}
      </Group>
      {detail !== undefined && (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      )}
    </Stack>
  );
}

/** What a caller without the right sees instead of a count it may not read (never a 0). */
export function NotVisible({ need }: { need: string | undefined }) {
  return (
    <Stack gap={2}>
      <Text fw={600}>Not visible to you</Text>
      <Text size="sm" c="dimmed">
        {need === undefined ? 'Your user may not list these.' : `This needs ${need}.`}
      </Text>
    </Stack>
  );
}
