import { Anchor, Button, Divider, Popover, Stack, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconServer2 } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { usePageFleet } from '@/hooks/use-page-fleet';

export type ParticipantSwitcherProps = {
  /** The fleet overview's path within a participant's pages. */
  fleetPath: string;
};

/**
 * In the header of a fleet (two participants or more): which participant these pages are, and the
 * same page on any other. Choosing one is a document navigation to `/p/OTHER/<same path>`, so the
 * new page starts with that participant's caches, streams and sign-in only. Nothing for a single
 * participant. A popover of links (a navigation, not a menu of actions): Tab moves through them,
 * Escape closes it.
 */
export function ParticipantSwitcher({ fleetPath }: ParticipantSwitcherProps) {
  const fleet = usePageFleet();
  const { pathname, search, hash } = useLocation();
  if (!fleet) return null;
  const { current, participants } = fleet;

  return (
    // Its content is a navigation landmark of its own, wherever the portal puts it.
    <Popover position="bottom-start" trapFocus shadow="md">
      <Popover.Target>
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconServer2 size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={`${current.name} (participant; switch participant)`}
          styles={{ label: { overflow: 'visible' } }}
        >
          {current.name}
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <nav aria-label="Participants">
          <Stack gap={4}>
            {participants.map((participant) => {
              const isCurrent = participant.name === current.name;
              return (
                <Anchor
                  key={participant.name}
                  // The participant's pages are its own document: a full load, not a route change.
                  href={`${participant.pagePath}${pathname}${search}${hash}`}
                  size="sm"
                  fw={isCurrent ? 700 : 400}
                  {...(isCurrent ? { 'aria-current': 'page' as const } : {})}
                  style={{ display: 'flex', alignItems: 'center', gap: 6 }}
                >
                  {isCurrent ? (
                    <IconCheck size={14} aria-hidden />
                  ) : (
                    <span style={{ width: 14 }} aria-hidden />
                  )}
                  {participant.name}
                  {participant.isDefault && ' '}
                  {participant.isDefault && (
                    <Text span size="xs" c="dimmed">
                      (default)
                    </Text>
                  )}
                </Anchor>
              );
            })}
          </Stack>
          <Divider my="xs" />
          <Anchor component={Link} to={fleetPath} size="sm">
            Fleet overview
          </Anchor>
        </nav>
      </Popover.Dropdown>
    </Popover>
  );
}
