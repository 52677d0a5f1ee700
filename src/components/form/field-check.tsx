import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type FieldCheckProps = {
  /** `ok`: the value exists as it should; `warning`: accepted, but probably not what was meant. */
  tone: 'ok' | 'warning' | 'dimmed';
  children: ReactNode;
};

/**
 * The visible check under a picker that also takes a pasted id (docs/design-system.md §Forms):
 * "✓ Hosted here", "⚠ No party “ali” on this participant". A warning, never a refusal.
 */
export function FieldCheck({ tone, children }: FieldCheckProps) {
  // The light-variant text colours keep their contrast in light and dark mode (theme.ts).
  const color =
    tone === 'ok'
      ? 'var(--mantine-color-teal-light-color)'
      : tone === 'warning'
        ? 'var(--mantine-color-orange-light-color)'
        : 'dimmed';
  return (
    <Text span display="block" size="xs" c={color} fw={500} mt={2} data-check={tone}>
      {children}
    </Text>
  );
}
