import { lazy, Suspense, useSyncExternalStore } from 'react';
import { hostMounted, isModalsHostWanted, subscribeModalsHostWanted } from './modals-ready';

// Mantine's ModalsProvider brings its Modal (and through it ScrollArea and floating-ui): about
// 20 KB gzip that every first route would load for a confirmation nobody has asked for yet
// (issue 29). It mounts the first time confirmDanger asks for it.
const ModalsProvider = lazy(() => import('./modals-provider'));

/** Where Mantine's modals render once wanted; once in the app, beside its pages. */
export function ModalsHost() {
  const wanted = useSyncExternalStore(subscribeModalsHostWanted, isModalsHostWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProvider onMount={hostMounted} />
    </Suspense>
  );
}
