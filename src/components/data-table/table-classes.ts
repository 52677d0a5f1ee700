import type { CSSProperties } from 'react';

/**
 * Mantine's Table class names, which its global stylesheet styles, so that our tables look like
 * Mantine's without its Table component: that one carries `Table.ScrollContainer`, and with it
 * ScrollArea and floating-ui (about 20 KB gzip), into the first load of every list page.
 * table-classes.test.ts holds them to `Table.classes`, so a Mantine upgrade that renames them
 * fails there rather than unstyling the lists.
 */
export const TABLE_CLASSES = {
  table: 'm_b23fa0ef',
  thead: 'm_b242d975',
  tbody: 'm_b2404537',
  tr: 'm_4e7aa4fd',
  th: 'm_4e7aa4f3',
  td: 'm_4e7aa4ef',
} as const;

/**
 * The custom properties Mantine's Table sets for `layout="fixed"` and its default vertical
 * spacing (7 px, as rem against the theme's scale); the stylesheet falls back for the rest.
 */
export const FIXED_TABLE_VARS = {
  '--table-layout': 'fixed',
  '--table-vertical-spacing': 'calc(0.4375rem * var(--mantine-scale))',
} as CSSProperties;
