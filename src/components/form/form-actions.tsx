import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonBusy } from './button-busy';

export type FormActionsProps = {
  /** Names what is saved or done: "Create user", "Save changes", "Grant". */
  submitLabel: string;
  isSubmitting: boolean;
  /** Disables submit, e.g. until something has been edited. */
  isSubmitDisabled?: boolean;
  /** A destructive submit (revoke, delete) is red. */
  isDanger?: boolean;
  /**
   * Cancel: a page to go back to (create pages), or a handler (inline edits, which reset the
   * fields). Absent for forms that have nothing to cancel, e.g. a search.
   */
  cancel?: { to: string } | { onClick: () => void; label?: string; isDisabled?: boolean };
  /** Right after the primary action: an alternative to it ("Preview" beside "Submit"). */
  beside?: ReactNode;
  /** At the bar's far end: "Copy as…" and the like. */
  extra?: ReactNode;
};

/**
 * The one Save/Cancel bar of every form (docs/design-system.md §Forms): the primary action first,
 * Cancel next to it, secondary tools at the far end, all wrapping on phones.
 */
export function FormActions({
  submitLabel,
  isSubmitting,
  isSubmitDisabled = false,
  isDanger = false,
  cancel,
  beside,
  extra,
}: FormActionsProps) {
  return (
    <Group gap="sm" wrap="wrap" justify="space-between" pt="xs">
      <Group gap="sm" wrap="wrap">
        <Button
          type="submit"
          loading={buttonBusy(isSubmitting)}
          disabled={isSubmitDisabled}
          {...(isDanger ? { color: 'red' } : {})}
        >
          {submitLabel}
        </Button>
        {beside}
        {cancel !== undefined &&
          ('to' in cancel ? (
            <Button component={Link} to={cancel.to} variant="default">
              Cancel
            </Button>
          ) : (
            <Button
              variant="default"
              onClick={cancel.onClick}
              disabled={isSubmitting || cancel.isDisabled === true}
            >
              {cancel.label ?? 'Cancel'}
            </Button>
          ))}
      </Group>
      {extra}
    </Group>
  );
}
