/**
 * One of a few fixed choices the user made once and expects the console to remember on every
 * visit and in every tab (how times read, how many updates /live starts with), kept in
 * localStorage like the colour scheme. What is stored may be anything another console version or
 * a curious user left there: a value outside `choices` reads as the fallback, and a storage that
 * refuses (private mode, a full quota, no window) keeps the choice for this page only. Never
 * throws.
 */
export type StoredChoice<T extends string> = {
  readonly key: string;
  readonly choices: readonly T[];
  /** The stored choice, or the fallback. Cheap: callers read it on every render. */
  read: () => T;
  write: (value: T) => void;
  /** Calls `listener` on every write here, and when another tab changes the key. */
  subscribe: (listener: () => void) => () => void;
};

export type StoredChoiceOptions<T extends string> = {
  key: string;
  choices: readonly T[];
  fallback: T;
  /** Where it is kept; the window's localStorage when absent. */
  storage?: () => Storage | undefined;
  /** Where another tab's change is announced (`storage` events); the window when absent. */
  events?: EventTarget | undefined;
};

function localStorageOrNone(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Reading `localStorage` itself throws where storage is blocked.
    return undefined;
  }
}

export function storedChoice<T extends string>({
  key,
  choices,
  fallback,
  storage = localStorageOrNone,
  events = typeof window === 'undefined' ? undefined : window,
}: StoredChoiceOptions<T>): StoredChoice<T> {
  const listeners = new Set<() => void>();
  // Kept when the storage refuses the write, so the choice holds at least for this page.
  let unsaved: T | undefined;
  const isChoice = (value: unknown): value is T => choices.includes(value as T);

  const read = (): T => {
    if (unsaved !== undefined) return unsaved;
    let text: string | null = null;
    try {
      text = storage()?.getItem(key) ?? null;
    } catch {
      text = null;
    }
    return isChoice(text) ? text : fallback;
  };

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const onStorage = (event: Event) => {
    // A `StorageEvent`; its key is null when another tab cleared the whole storage.
    const changed = (event as Partial<StorageEvent>).key;
    if (changed === key || changed === null) {
      unsaved = undefined;
      notify();
    }
  };

  return {
    key,
    choices,
    read,
    write: (value) => {
      if (!isChoice(value)) return;
      try {
        const target = storage();
        if (!target) throw new Error('No storage');
        target.setItem(key, value);
        unsaved = undefined;
      } catch {
        unsaved = value;
      }
      notify();
    },
    subscribe: (listener) => {
      if (listeners.size === 0) events?.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) events?.removeEventListener('storage', onStorage);
      };
    },
  };
}
