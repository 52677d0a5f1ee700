import { ActionIcon } from '@mantine/core';
import { StrokeIcon } from './stroke-icon';

export type RemoveButtonProps = {
  /** The accessible name, e.g. "Remove right 2". */
  label: string;
  onClick: () => void;
};

/** The × that removes one row of an editable list. */
export function RemoveButton({ label, onClick }: RemoveButtonProps) {
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} onClick={onClick}>
      <StrokeIcon size={16}>
        <path d="M18 6L6 18M6 6l12 12" />
      </StrokeIcon>
    </ActionIcon>
  );
}
