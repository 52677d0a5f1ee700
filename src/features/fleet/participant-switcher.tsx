import { Button, Menu, Text } from '@mantine/core';
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
 * participant.
 */
export function ParticipantSwitcher({ fleetPath }: ParticipantSwitcherProps) {
  const fleet = usePageFleet();
  const { pathname, search, hash } = useLocation();
  if (!fleet) return null;
  const { current, participants } = fleet;

  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
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
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Participants</Menu.Label>
        {participants.map((participant) => {
          const isCurrent = participant.name === current.name;
          return (
            <Menu.Item
              key={participant.name}
              component="a"
              // The participant's pages are its own document: a full load, not a route change.
              href={`${participant.pagePath}${pathname}${search}${hash}`}
              leftSection={
                isCurrent ? <IconCheck size={14} aria-hidden /> : <span style={{ width: 14 }} />
              }
              {...(isCurrent ? { 'aria-current': 'page' as const } : {})}
            >
              {participant.name}
              {participant.isDefault && (
                <Text span size="xs" c="dimmed">
                  {' '}
                  (default)
                </Text>
              )}
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        <Menu.Item component={Link} to={fleetPath}>
          Fleet overview
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
