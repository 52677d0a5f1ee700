import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/**
 * Mantine's toasts (their transitions and portal), in their own chunk: the first route shows none,
 * so they load with the first toast (AppProviders).
 */
export default function NotificationsHost() {
  return <Notifications />;
}
