import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export type AddRowButtonProps = {
  /** What it adds, e.g. "Add party right". */
  children: ReactNode;
  onClick: () => void;
};

/** The button under an editable list that adds one row to it (see RemoveButton for the ×). */
export function AddRowButton({ children, onClick }: AddRowButtonProps) {
  return (
    <Group>
      <Button variant="default" size="xs" onClick={onClick}>
        {children}
      </Button>
    </Group>
  );
}
