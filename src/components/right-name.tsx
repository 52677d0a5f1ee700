import { Text, Tooltip } from '@mantine/core';
import type { RightKind } from '@/lib/access/access-rights';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';

export type RightNameProps = {
  kind: RightKind;
};

/**
 * A right by its console name ("Act as"), with the Ledger API's name (`CanActAs`) and what it
 * allows on hover and focus: one vocabulary on every screen (docs/design-system.md §Words).
 */
export function RightName({ kind }: RightNameProps) {
  const { label, help } = RIGHT_KIND_INFO[kind];
  return (
    <Tooltip label={`${help} Ledger API: ${kind}`} multiline maw={320} openDelay={300}>
      <Text span inherit tabIndex={0} style={{ textDecoration: 'underline dotted' }}>
        {label}
      </Text>
    </Tooltip>
  );
}
