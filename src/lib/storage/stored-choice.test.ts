import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage, SmallStorage } from '@/testing/memory-storage';
import { storedChoice } from './stored-choice';

const choiceIn = (storage: Storage | undefined, events = new EventTarget()) =>
  storedChoice({
    key: 'test.times',
    choices: ['relative', 'absolute'] as const,
    fallback: 'relative',
    storage: () => storage,
    events,
  });

/** What the browser fires in the other tabs when one tab writes to localStorage. */
const storageEvent = (key: string | null) => Object.assign(new Event('storage'), { key });

describe('storedChoice', () => {
  it('reads the fallback until a choice is written, then that choice, from the storage', () => {
    const storage = new MemoryStorage();
    const times = choiceIn(storage);
    expect(times.read()).toBe('relative');
    times.write('absolute');
    expect(storage.getItem('test.times')).toBe('absolute');
    // Another page (a reload) reads what this one wrote.
    expect(choiceIn(storage).read()).toBe('absolute');
  });

  it('reads anything that is not one of the choices as the fallback, and refuses to write it', () => {
    const storage = new MemoryStorage();
    storage.setItem('test.times', '<script>');
    const times = choiceIn(storage);
    expect(times.read()).toBe('relative');
    times.write('sideways' as 'absolute');
    expect(storage.getItem('test.times')).toBe('<script>');
  });

  it('keeps the choice for this page when the storage refuses it, or there is none', () => {
    const full = choiceIn(new SmallStorage(0));
    full.write('absolute');
    expect(full.read()).toBe('absolute');
    const none = choiceIn(undefined);
    none.write('absolute');
    expect(none.read()).toBe('absolute');
  });

  it('tells subscribers of writes here and of another tab’s change, until they leave', () => {
    const storage = new MemoryStorage();
    const window = new EventTarget();
    const times = choiceIn(storage, window);
    const listener = vi.fn();
    const leave = times.subscribe(listener);
    times.write('absolute');
    expect(listener).toHaveBeenCalledTimes(1);
    storage.setItem('test.times', 'relative');
    window.dispatchEvent(storageEvent('test.times'));
    expect(listener).toHaveBeenCalledTimes(2);
    expect(times.read()).toBe('relative');
    window.dispatchEvent(storageEvent('another.key'));
    expect(listener).toHaveBeenCalledTimes(2);
    window.dispatchEvent(storageEvent(null));
    expect(listener).toHaveBeenCalledTimes(3);
    leave();
    times.write('absolute');
    window.dispatchEvent(storageEvent('test.times'));
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
