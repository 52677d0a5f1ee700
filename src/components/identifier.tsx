import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { shortenIdentifier } from '@/lib/format';
import { StrokeIcon } from './stroke-icon';

export type IdentifierProps = {
  value: string;
  /** What the value is, for the copy button's accessible name ("Copy participant id"). */
  label: string;
  /** Show `hint::1220ab…cd` with the full id on hover, for tight places such as headers. */
  isShortened?: boolean;
};

/** A long ledger identifier (party, participant, contract id) with a copy button. */
export function Identifier({ value, label, isShortened = false }: IdentifierProps) {
  const shown = isShortened ? shortenIdentifier(value) : value;
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Text
        ff="monospace"
        size="sm"
        style={{ overflowWrap: 'anywhere' }}
        title={shown === value ? undefined : value}
      >
        {shown}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              onClick={copy}
              aria-label={`Copy ${label}`}
            >
              <CopyIcon copied={copied} />
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

function CopyIcon({ copied }: { copied: boolean }) {
  return (
    <StrokeIcon>
      {copied ? (
        <path d="M5 12l5 5l10 -10" />
      ) : (
        <>
          <rect x="8" y="8" width="12" height="12" rx="2" />
          <path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
        </>
      )}
    </StrokeIcon>
  );
}
