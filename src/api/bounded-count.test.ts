import { describe, expect, it } from 'vitest';
import { readBounded, type ListPage } from './bounded-count';

/**
 * A token-paged list as the participant pages users and parties (§2.6): ids in order, a token
 * (the last id) whenever a page is full, and the requests it was asked.
 */
function pagedList(size: number, { ignorePageSize = false } = {}) {
  const ids = Array.from({ length: size }, (_, index) => `id-${String(index).padStart(5, '0')}`);
  const requests: { pageSize: number; pageToken: string }[] = [];
  const readPage = (pageSize: number, pageToken: string): Promise<ListPage<string>> => {
    requests.push({ pageSize, pageToken });
    const rest = ids.filter((id) => id > pageToken);
    const items = ignorePageSize ? rest : rest.slice(0, pageSize);
    const isFull = items.length >= pageSize;
    return Promise.resolve({ items, nextPageToken: isFull ? (items.at(-1) ?? '') : '' });
  };
  return { readPage, requests };
}

describe('readBounded', () => {
  it('reads a list shorter than the bound in one request', async () => {
    const list = pagedList(7);
    const read = await readBounded(list.readPage, 10);
    expect(read).toEqual({ items: expect.any(Array) as unknown, isComplete: true });
    expect(read.items).toHaveLength(7);
    expect(list.requests).toEqual([{ pageSize: 10, pageToken: '' }]);
  });

  it('tells a list of exactly the bound (a full page with a token) from a longer one', async () => {
    const exact = pagedList(10);
    expect(await readBounded(exact.readPage, 10)).toMatchObject({ isComplete: true });
    expect(exact.requests).toEqual([
      { pageSize: 10, pageToken: '' },
      { pageSize: 1, pageToken: 'id-00009' },
    ]);

    const longer = pagedList(5000);
    const read = await readBounded(longer.readPage, 10);
    expect(read.isComplete).toBe(false);
    expect(read.items).toHaveLength(10);
    expect(longer.requests).toHaveLength(2);
  });

  it('keeps to the bound when the participant answers with more than asked', async () => {
    const list = pagedList(25, { ignorePageSize: true });
    const read = await readBounded(list.readPage, 10);
    expect(read).toMatchObject({ isComplete: false });
    expect(read.items).toHaveLength(10);
    expect(list.requests).toHaveLength(1);
  });
});
