import { Modal } from '@mantine/core';
import { SignInPanel } from '@/features/session/sign-in-panel';

export type SignInDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** Where the sign-in returns to: the page under the dialog. */
  returnTo: string;
};

/**
 * Signing in again over the page (main-content.tsx), loaded the first time it opens: the form, its
 * validation and Mantine's Modal stay out of the first chunk every route loads (issue 29).
 */
export function SignInDialog({ opened, onClose, returnTo }: SignInDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Sign in again" size="lg">
      <SignInPanel mode="dialog" returnTo={returnTo} onSignedIn={onClose} />
    </Modal>
  );
}
