// The state behind ModalsHost (modals-host.tsx): whether the provider is wanted, and who waits for
// it to listen.
let isWanted = false;
let mountedHosts = 0;
const wantListeners = new Set<() => void>();
let waiting: (() => void)[] = [];

export function subscribeModalsHostWanted(listener: () => void) {
  wantListeners.add(listener);
  return () => {
    wantListeners.delete(listener);
  };
}

/** Called by the provider as it mounts; the function it returns, as it unmounts. */
export function hostMounted(): () => void {
  mountedHosts += 1;
  const resolved = waiting;
  waiting = [];
  for (const resolve of resolved) resolve();
  return () => {
    mountedHosts -= 1;
  };
}

/**
 * Resolves once a ModalsProvider listens for Mantine's modal events, mounting it the first time:
 * an event sent before then would be lost.
 */
export function whenModalsReady(): Promise<void> {
  if (!isWanted) {
    isWanted = true;
    for (const listener of wantListeners) listener();
  }
  if (mountedHosts > 0) return Promise.resolve();
  return new Promise((resolve) => {
    waiting.push(resolve);
  });
}

export function isModalsHostWanted(): boolean {
  return isWanted;
}
