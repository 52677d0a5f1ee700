import { ModalsProvider as MantineModalsProvider } from '@mantine/modals';
import { useEffect } from 'react';

/**
 * Mantine's ModalsProvider, loaded by ModalsHost. `onMount` runs after the provider's own effects,
 * which subscribe it to the modal events (a child's effects run before its parent's).
 */
export default function ModalsProvider({ onMount }: { onMount: () => () => void }) {
  useEffect(onMount, [onMount]);
  return <MantineModalsProvider />;
}
