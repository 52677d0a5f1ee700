import { Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

export type PagedListFrameProps = {
  /** The list's inputs (filter, page size, …), in one row. */
  toolbar: ReactNode;
  /** What the list holds, and for whom. */
  scopeNote: ReactNode;
  /**
   * Above the toolbar when it holds for the whole list; below when it depends on what the
   * toolbar picks (e.g. whose view of the list).
   */
  scopeNotePlacement: 'above-toolbar' | 'below-toolbar';
  /** The page (see {@link TokenPage}), with whatever goes between it and the toolbar. */
  children: ReactNode;
};

/** The frame of a list screen paged with tokens: scope note, toolbar, then the page. */
export function PagedListFrame({
  toolbar,
  scopeNote,
  scopeNotePlacement,
  children,
}: PagedListFrameProps) {
  return (
    <Stack gap="md">
      {scopeNotePlacement === 'above-toolbar' && scopeNote}
      <Group align="flex-end" gap="sm">
        {toolbar}
      </Group>
      {scopeNotePlacement === 'below-toolbar' && scopeNote}
      {children}
    </Stack>
  );
}
