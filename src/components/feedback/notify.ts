import { notifications } from '@mantine/notifications';
import { describeError } from '@/lib/errors/api-error';

// Mantine's close button has no accessible name of its own (axe: button-name).
const closeButtonProps = { 'aria-label': 'Close notification' };

/** Toasts: for one-click actions and failed background refreshes only (style guide §B6). */
export const notify = {
  success(message: string): void {
    notifications.show({ color: 'green', message, closeButtonProps });
  },
  error(error: unknown, title?: string): void {
    const description = describeError(error);
    notifications.show({
      color: 'red',
      closeButtonProps,
      title: title ?? description.title,
      message: description.code
        ? `${description.message} (${description.code})`
        : description.message,
    });
  },
};
