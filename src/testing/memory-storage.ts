/** A Web Storage in memory, for node tests of code that reads `sessionStorage`. */
export class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();

  get length(): number {
    return this.#items.size;
  }

  clear(): void {
    this.#items.clear();
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, value);
  }
}

/** A storage that refuses any value longer than `quota` characters, as a full browser does. */
export class SmallStorage extends MemoryStorage {
  constructor(private readonly quota: number) {
    super();
  }
  override setItem(key: string, value: string): void {
    if (value.length > this.quota) throw new DOMException('full', 'QuotaExceededError');
    super.setItem(key, value);
  }
}
