import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { whenModalsReady } from './modals-ready';

export type ConfirmDangerOptions = {
  title: string;
  /** What exactly will change; a string becomes a paragraph. */
  body: ReactNode;
  /** Names the action ("Revoke 2 rights"), never "OK". */
  confirmLabel: string;
  onConfirm: () => void;
  /** Red for destructive actions (default); blue for reversible changes. */
  color?: 'red' | 'blue';
};

/** A confirm step before an action that changes or destroys something (style guide §B7). */
export function confirmDanger({
  title,
  body,
  confirmLabel,
  onConfirm,
  color = 'red',
}: ConfirmDangerOptions): void {
  // The dialog opens once the modals' code is in: at once after the first time.
  void whenModalsReady().then(() => {
    modals.openConfirmModal({
      title,
      children: typeof body === 'string' ? <Text size="sm">{body}</Text> : body,
      labels: { confirm: confirmLabel, cancel: 'Cancel' },
      confirmProps: { color },
      onConfirm,
    });
  });
}
