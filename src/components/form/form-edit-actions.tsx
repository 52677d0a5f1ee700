import { Button, Group } from '@mantine/core';

export type FormEditActionsProps = {
  /** Names what is saved, e.g. "Save changes". */
  saveLabel: string;
  isDirty: boolean;
  isSaving: boolean;
  /** Resets the form to the entity it edits. */
  onDiscard: () => void;
};

/** Save (submits the form) and discard for an edit form; both wait for an edit. */
export function FormEditActions({ saveLabel, isDirty, isSaving, onDiscard }: FormEditActionsProps) {
  return (
    <Group>
      <Button type="submit" loading={isSaving} disabled={!isDirty}>
        {saveLabel}
      </Button>
      <Button variant="default" disabled={!isDirty || isSaving} onClick={onDiscard}>
        Discard changes
      </Button>
    </Group>
  );
}
