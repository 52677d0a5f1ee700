import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage, SmallStorage } from '@/testing/memory-storage';
import {
  createBoundedJsonStore,
  fitToBudget,
  parseJsonList,
  withNewest,
  type StorePlace,
} from './bounded-json-store';

type Item = { id: string; note: string };

const isItem = (value: unknown): value is Item =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Item).id === 'string' &&
  typeof (value as Item).note === 'string';

const item = (id: string): Item => ({ id, note: 'x'.repeat(50) });
const ids = (items: readonly Item[]) => items.map(({ id }) => id);
const ONE = JSON.stringify(item('a0')).length;

/** A storage whose every call throws, as a browser with storage disabled does. */
class BrokenStorage extends MemoryStorage {
  override getItem(): string | null {
    throw new DOMException('denied', 'SecurityError');
  }
  override setItem(): void {
    throw new DOMException('denied', 'SecurityError');
  }
  override removeItem(): void {
    throw new DOMException('denied', 'SecurityError');
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('list helpers', () => {
  it('puts the newest first, once, up to the bound', () => {
    let items: Item[] = [];
    for (const id of ['a', 'b', 'c', 'b', 'd']) items = withNewest(items, item(id), 3);
    expect(ids(items)).toEqual(['d', 'b', 'c']);
  });

  it('fits the newest items into a character budget', () => {
    const items = ['a', 'b', 'c'].map(item);
    const one = JSON.stringify(items[0]).length;
    expect(ids(fitToBudget(items, 2 + 2 * (one + 1)))).toEqual(['a', 'b']);
    expect(fitToBudget(items, 10)).toEqual([]);
  });

  it('reads corrupt, foreign or oversized text as what it can use, never throwing', () => {
    expect(parseJsonList(null, isItem, 5)).toEqual([]);
    expect(parseJsonList('', isItem, 5)).toEqual([]);
    expect(parseJsonList('[{"id": broken', isItem, 5)).toEqual([]);
    expect(parseJsonList('{"id":"a","note":""}', isItem, 5)).toEqual([]);
    expect(parseJsonList(JSON.stringify([1, null, { id: 2 }, item('a')]), isItem, 5)).toEqual([
      item('a'),
    ]);
    const many = JSON.stringify(['a', 'b', 'c', 'd'].map(item));
    expect(ids(parseJsonList(many, isItem, 2))).toEqual(['a', 'b']);
  });
});

describe('bounded JSON store', () => {
  it('writes and reads back, the same array while the text is unchanged', () => {
    const store = createBoundedJsonStore({ isItem, maxItems: 10 });
    const place: StorePlace = { storage: new MemoryStorage(), key: 'list' };
    expect(store.write(place, [item('b'), item('a')])).toBe(2);
    const first = store.read(place);
    expect(ids(first)).toEqual(['b', 'a']);
    expect(store.read(place)).toBe(first);
    place.storage?.setItem('list', JSON.stringify([item('c')]));
    expect(ids(store.read(place))).toEqual(['c']);
  });

  it('keeps at most maxItems when reading what another writer left', () => {
    const store = createBoundedJsonStore({ isItem, maxItems: 2 });
    const storage = new MemoryStorage();
    storage.setItem('list', JSON.stringify(['a', 'b', 'c'].map(item)));
    expect(ids(store.read({ storage, key: 'list' }))).toEqual(['a', 'b']);
  });

  it('removes the key for an empty list', () => {
    const store = createBoundedJsonStore({ isItem, maxItems: 10 });
    const storage = new MemoryStorage();
    store.write({ storage, key: 'list' }, [item('a')]);
    expect(store.write({ storage, key: 'list' }, [])).toBe(0);
    expect(storage.getItem('list')).toBeNull();
    expect(storage.length).toBe(0);
  });

  it('keeps within its character budget before the storage has to refuse, with headroom', () => {
    const maxChars = 2 + 9 * (ONE + 2);
    const store = createBoundedJsonStore({ isItem, maxItems: 100, maxChars });
    const place: StorePlace = { storage: new MemoryStorage(), key: 'list' };
    const ten = Array.from({ length: 10 }, (_, index) => item(`a${String(index)}`));
    // Nine fit; over budget, the list is cut to 80% of it (seven).
    expect(store.write(place, ten)).toBe(7);
    expect(store.write(place, ten.slice(0, 2))).toBe(2);
    // A budget given to the write wins over the store's.
    expect(store.write(place, ten, 2 + 3 * (ONE + 1))).toBe(2);
  });

  it('keeps the newest items a full storage takes, and never throws', () => {
    const store = createBoundedJsonStore({ isItem, maxItems: 100 });
    const place: StorePlace = { storage: new SmallStorage(3 * (ONE + 1)), key: 'list' };
    const eight = Array.from({ length: 8 }, (_, index) => item(`a${String(index)}`));
    expect(store.write(place, eight)).toBe(2);
    expect(ids(store.read(place))).toEqual(['a0', 'a1']);

    const refusing: StorePlace = { storage: new SmallStorage(0), key: 'list' };
    expect(store.write(refusing, eight)).toBe(0);
    expect(store.read(refusing)).toEqual([]);
  });

  it('reads and writes nothing, without throwing, where storage is missing or disabled', () => {
    const store = createBoundedJsonStore({ isItem, maxItems: 10 });
    const broken: StorePlace = { storage: new BrokenStorage(), key: 'list' };
    expect(store.read(broken)).toEqual([]);
    expect(store.write(broken, [item('a')])).toBe(0);
    const none: StorePlace = { storage: undefined, key: 'list' };
    expect(store.read(none)).toEqual([]);
    expect(store.write(none, [item('a')])).toBe(1);
  });

  it("tells subscribers of its own writes and of another tab's change of their key", () => {
    vi.stubGlobal('window', new EventTarget());
    const store = createBoundedJsonStore({ isItem, maxItems: 10 });
    const listener = vi.fn();
    const unsubscribe = store.subscribe('list', listener);

    store.write({ storage: new MemoryStorage(), key: 'list' }, [item('a')]);
    expect(listener).toHaveBeenCalledTimes(1);
    window.dispatchEvent(Object.assign(new Event('storage'), { key: 'list' }));
    window.dispatchEvent(Object.assign(new Event('storage'), { key: 'other' }));
    // A cleared storage (key null) concerns every list.
    window.dispatchEvent(Object.assign(new Event('storage'), { key: null }));
    expect(listener).toHaveBeenCalledTimes(3);

    unsubscribe();
    store.write({ storage: new MemoryStorage(), key: 'list' }, [item('b')]);
    window.dispatchEvent(Object.assign(new Event('storage'), { key: 'list' }));
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
