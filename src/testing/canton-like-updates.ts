import { UPDATES_LIST_LIMIT } from '@/api/updates';
import type { NetworkIntercept } from './sandbox-network';

/**
 * `/v2/updates` as a real participant answers it: an offset checkpoint at every offset in the
 * range (each before its update, if any), in the order asked for (or ascending, for a release
 * that ignores `descendingOrder`), cut at `limit` without an error.
 */
export function cantonLikeUpdates(honoursDescending: boolean): NetworkIntercept {
  return async (request, sandboxFetch) => {
    const url = new URL(request.url);
    if (url.pathname !== '/v2/updates') return sandboxFetch(request);
    const body = (await request.clone().json()) as {
      beginExclusive: number;
      endInclusive: number;
      descendingOrder?: boolean;
    };
    const limit = Number(url.searchParams.get('limit') ?? UPDATES_LIST_LIMIT);
    url.searchParams.delete('limit');
    const response = await sandboxFetch(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, descendingOrder: false }),
      }),
    );
    const updates = (await response.json()) as {
      update: Record<string, { value: { offset: number } }>;
    }[];
    // Transactions and topology transactions alike: each update's one entry holds its offset.
    const byOffset = new Map(
      updates.map((item) => [Object.values(item.update)[0]?.value.offset ?? 0, item]),
    );
    const offsets = Array.from(
      { length: body.endInclusive - body.beginExclusive },
      (_, i) => body.beginExclusive + 1 + i,
    );
    if (honoursDescending && body.descendingOrder) offsets.reverse();
    const elements = offsets.flatMap((offset) => {
      const checkpoint = {
        update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } },
      };
      const transaction = byOffset.get(offset);
      return transaction ? [checkpoint, transaction] : [checkpoint];
    });
    return Response.json(elements.slice(0, limit));
  };
}
