import type { NotificationData } from '@mantine/notifications';
import { describeError } from '@/lib/errors/api-error';

// Mantine's close button has no accessible name of its own (axe: button-name).
const closeButtonProps = { 'aria-label': 'Close notification' };

// Mantine's notifications (and react-transition-group under them), about 7 KB gzip, load with the
// first toast rather than with every first route (issue 29). Their store is a module of its own,
// so a toast shown before <Notifications /> mounts is shown when it does.
let isHostWanted = false;
const hostListeners = new Set<() => void>();

export function subscribeNotificationsHostWanted(listener: () => void) {
  hostListeners.add(listener);
  return () => {
    hostListeners.delete(listener);
  };
}

export function isNotificationsHostWanted(): boolean {
  return isHostWanted;
}

function show(data: NotificationData): void {
  if (!isHostWanted) {
    isHostWanted = true;
    for (const listener of hostListeners) listener();
  }
  void import('@mantine/notifications').then(({ notifications }) => {
    notifications.show(data);
  });
}

/** Toasts: for one-click actions and failed background refreshes only (style guide §B6). */
export const notify = {
  success(message: string): void {
    show({ color: 'green', message, closeButtonProps });
  },
  error(error: unknown, title?: string): void {
    const description = describeError(error);
    show({
      color: 'red',
      closeButtonProps,
      title: title ?? description.title,
      message: description.code
        ? `${description.message} (${description.code})`
        : description.message,
    });
  },
};
