import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { PropertyList } from '@/components/property-list';
import { FormActions } from './form-actions';
import { FormUpdateError } from './form-update-error';
import type { GuardedEditControls } from './use-guarded-edit-form';

export type GuardedEditFormProps<T extends FieldValues> = {
  /** The form's accessible name, e.g. "Profile". */
  label: string;
  /** The form's state, from {@link useGuardedEditForm}. */
  edit: GuardedEditControls<T>;
  /** The code the server refuses a stale resourceVersion with, e.g. CONCURRENT_USER_UPDATE_DETECTED. */
  conflictCode: string;
  /** What happened, naming the thing edited: "Someone else changed this user after you opened it". */
  conflictTitle: string;
  /** The resourceVersion the edits are based on. */
  resourceVersion: string;
  /** Names what is saved, e.g. "Save changes". */
  saveLabel: string;
  /** The fields. */
  children: ReactNode;
  /** At the Save bar's far end, e.g. "Copy as…" for the update. */
  extra?: ReactNode;
};

/**
 * The form around the fields of a {@link useGuardedEditForm}: its update error or conflict at the
 * top, the resourceVersion the edits are based on, then the fields, then save and discard (both
 * wait for an edit).
 */
export function GuardedEditForm<T extends FieldValues>({
  label,
  edit,
  conflictCode,
  conflictTitle,
  resourceVersion,
  saveLabel,
  children,
  extra,
}: GuardedEditFormProps<T>) {
  return (
    <form onSubmit={(event) => void edit.handleSubmit(event)} noValidate aria-label={label}>
      <Stack gap="lg" maw={760}>
        <FormUpdateError
          {...edit.updateError}
          conflictCode={conflictCode}
          conflictTitle={conflictTitle}
        />
        <PropertyList
          items={[{ label: 'Resource version', value: <Text size="sm">{resourceVersion}</Text> }]}
        />
        {children}
        <FormActions
          submitLabel={saveLabel}
          isSubmitting={edit.isSaving}
          isSubmitDisabled={!edit.isDirty}
          cancel={{ onClick: edit.discard, label: 'Discard changes', isDisabled: !edit.isDirty }}
          {...(extra === undefined ? {} : { extra })}
        />
      </Stack>
    </form>
  );
}
