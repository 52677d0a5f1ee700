import { Anchor, Button, Group, Menu, Text } from '@mantine/core';
import { IconArrowsLeftRight, IconChevronDown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  pageParticipantOf,
  participantListQueries,
  type FleetParticipant,
} from '@/api/participants';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { CompareProjections } from './compare-projections';

/** Pages of a participant, below its page path; the page passes them (features know no routes). */
export type CompareLinks = {
  update: (updateId: string) => string;
  signIn: (from: string) => string;
};

export type TransactionCompare = {
  /** The participant compared with, by name; undefined when not comparing. */
  with: string | undefined;
  onChange: (name: string | undefined) => void;
  links: CompareLinks;
};

/** The fleet as this page needs it: its own participant and the others, once the list is read. */
function useCompareFleet(): { here: FleetParticipant; others: FleetParticipant[] } | undefined {
  const { data: fleet } = useQuery({
    ...participantListQueries.list(),
    meta: { errorDisplay: 'inline' },
  });
  const here = fleet && pageParticipantOf(fleet);
  if (!fleet || !here) return undefined;
  return { here, others: fleet.participants.filter((participant) => participant !== here) };
}

/**
 * "Compare with participant…": offered when the console has another participant; while comparing,
 * which one, a way back, and a link to the update on that participant's own pages.
 */
export function CompareControl({
  tree,
  compare,
}: {
  tree: TransactionTree;
  compare: TransactionCompare;
}) {
  const fleet = useCompareFleet();
  if (!fleet || fleet.others.length === 0) return null;
  const other = fleet.others.find((participant) => participant.name === compare.with);
  return (
    <Group gap="sm" wrap="wrap">
      <Menu position="bottom-start">
        <Menu.Target>
          <Button
            size="xs"
            variant={other ? 'filled' : 'light'}
            leftSection={<IconArrowsLeftRight size={14} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
          >
            {other ? `Comparing with ${other.name}` : 'Compare with participant…'}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Show this update as another participant sees it</Menu.Label>
          {fleet.others.map((participant) => (
            <Menu.Item
              key={participant.name}
              onClick={() => {
                compare.onChange(participant.name);
              }}
            >
              {participant.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {other && (
        <>
          <Button
            size="xs"
            variant="subtle"
            onClick={() => {
              compare.onChange(undefined);
            }}
          >
            Stop comparing
          </Button>
          <Anchor size="sm" href={`${other.pagePath}${compare.links.update(tree.updateId)}`}>
            Open on {other.name}
          </Anchor>
        </>
      )}
      {compare.with !== undefined && !other && (
        <Text size="sm" c="red">
          This console has no other participant named “{compare.with}”.
        </Text>
      )}
    </Group>
  );
}

/** The comparison itself, below the header, in place of the tree, while comparing. */
export function ComparedTransaction({
  tree,
  compare,
}: {
  tree: TransactionTree;
  compare: TransactionCompare;
}) {
  const fleet = useCompareFleet();
  const other = fleet?.others.find((participant) => participant.name === compare.with);
  if (!fleet || !other) return null;
  const update = compare.links.update(tree.updateId);
  return (
    <CompareProjections
      key={other.name}
      tree={tree}
      here={fleet.here.name}
      there={other.name}
      signInHref={`${other.pagePath}${compare.links.signIn(update)}`}
    />
  );
}
