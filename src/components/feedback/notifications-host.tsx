import { lazy, Suspense, useSyncExternalStore } from 'react';
import { isNotificationsHostWanted, subscribeNotificationsHostWanted } from './notify';

const Notifications = lazy(async () => ({
  default: (await import('@mantine/notifications')).Notifications,
}));

/** Where toasts render: mounted with the first one (see notify.ts). */
export function NotificationsHost() {
  const isWanted = useSyncExternalStore(
    subscribeNotificationsHostWanted,
    isNotificationsHostWanted,
    () => false,
  );
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}
