import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { StrokeIcon } from '@/components/stroke-icon';
import { splitIsolates } from '@/lib/text/display-text';

export type VerdictStatus = 'ok' | 'warning' | 'problem' | 'unknown';

/** One finding of a diagnosis (the token doctor's, a user's access check). */
export type Verdict = {
  /** Unique within the list. */
  id: string;
  title: string;
  status: VerdictStatus;
  /**
   * Plain text; values from tokens or the ledger are quoted, never markup, and put in with
   * `isolateIdentifier`, so they show isolated and with their hidden characters revealed.
   */
  finding: string;
  /** One sentence: what to do about it. */
  fix?: string;
};

const STATUS: Record<VerdictStatus, { label: string; color: string; icon: ReactNode }> = {
  ok: { label: 'OK', color: 'teal', icon: <path d="M5 12l5 5L20 7" /> },
  warning: {
    label: 'Warning',
    color: 'orange',
    icon: <path d="M12 4l9 16H3zM12 10v4M12 17v.01" />,
  },
  problem: { label: 'Problem', color: 'red', icon: <path d="M6 6l12 12M18 6L6 18" /> },
  unknown: {
    label: 'Unknown',
    color: 'gray',
    icon: <path d="M9 9a3 3 0 1 1 4 2.8c-.6.3-1 .9-1 1.6V15M12 18v.01" />,
  },
};

export type VerdictListProps = {
  verdicts: readonly Verdict[];
  /** The list's accessible name. */
  label?: string;
};

/**
 * The verdicts, one list item each, named by its title. Findings and fixes quote untrusted values
 * (token claims, ledger data): they are rendered as text only, never as markup or links.
 */
export function VerdictList({ verdicts, label = 'Verdicts' }: VerdictListProps) {
  const idPrefix = useId();
  const counts = (status: VerdictStatus) => verdicts.filter((v) => v.status === status).length;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {count(counts('problem'), 'problem', 'problems')},{' '}
        {count(counts('warning'), 'warning', 'warnings')}, {String(counts('ok'))} fine,{' '}
        {String(counts('unknown'))} unknown.
      </Text>
      <Stack
        component="ul"
        gap="xs"
        aria-label={label}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {verdicts.map((verdict) => {
          const status = STATUS[verdict.status];
          const titleId = `${idPrefix}-${verdict.id}`;
          return (
            <Paper component="li" key={verdict.id} withBorder p="sm" aria-labelledby={titleId}>
              <Stack gap={4}>
                <Group gap="xs" wrap="nowrap">
                  <Badge
                    color={status.color}
                    variant="light"
                    leftSection={<StrokeIcon size={12}>{status.icon}</StrokeIcon>}
                  >
                    {status.label}
                  </Badge>
                  <Text fw={600} size="sm" id={titleId}>
                    {verdict.title}
                  </Text>
                </Group>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <Sentence text={verdict.finding} />
                </Text>
                {verdict.fix !== undefined && (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Text span fw={600} size="sm">
                      Fix:
                    </Text>{' '}
                    <Sentence text={verdict.fix} />
                  </Text>
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}

/**
 * A finding with each quoted value in a `<bdi>`: the element, not just the isolate characters
 * `isolateIdentifier` left in the text, so the isolation holds wherever the text is rendered.
 */
function Sentence({ text }: { text: string }) {
  return splitIsolates(text).map((part, index) =>
    part.isIsolated ? <bdi key={index}>{part.text}</bdi> : part.text,
  );
}

function count(n: number, one: string, many: string): string {
  return `${String(n)} ${n === 1 ? one : many}`;
}
