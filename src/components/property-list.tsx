import { Box, Stack, Text } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { IsolatedText } from './isolated-text';
import classes from './property-list.module.css';

export type Property = {
  /** Shown isolated, with bidi controls revealed: an annotation key can be a label. */
  label: string;
  value: ReactNode;
};

export type PropertyListProps = {
  items: readonly Property[];
};

/**
 * Label/value pairs, each a group named by its label, so assistive technology announces the label
 * with the value and tests find it as `getByRole('group', { name: label })`. Not a `<dl>`: ARIA
 * forbids naming its `term`/`definition` roles, so a value could not be found by its label.
 */
export function PropertyList({ items }: PropertyListProps) {
  const id = useId();
  return (
    <Stack gap="sm">
      {items.map(({ label, value }, index) => {
        const labelId = `${id}-${String(index)}`;
        return (
          <div key={label} role="group" aria-labelledby={labelId} className={classes.row}>
            <Text id={labelId} size="sm" c="dimmed" className={classes.label}>
              {/* A label can be an annotation key, chosen by whoever wrote it: free text, isolated. */}
              <IsolatedText>{label}</IsolatedText>
            </Text>
            <Box className={classes.value}>{value}</Box>
          </div>
        );
      })}
    </Stack>
  );
}
