import { identityDataStorage, identityScopedKey } from '@/api/access-token';
import { recognizeId, type IdKind, type RecognizedId } from '@/lib/id-recognition';

/**
 * What the signed-in identity opened through the search box, newest first, kept per participant
 * as long as that identity's sign-in (see identityDataStorage), like the composer's history.
 * An id is kept as its text and kind and read back through `recognizeId`, so what storage holds
 * goes through the same checks as typed input before it becomes a link.
 */

export const MAX_RECENT_ITEMS = 10;

export type RecentItem = { kind: 'id'; id: RecognizedId } | { kind: 'action'; actionId: string };

type StoredItem = { kind: 'id'; text: string; as: IdKind } | { kind: 'action'; actionId: string };

/** The text an id was recognized from, as the participant spells it. */
export function idText(id: RecognizedId): string {
  switch (id.kind) {
    case 'party':
      return id.party;
    case 'update':
      return id.updateId;
    case 'contract':
      return id.contractId;
    case 'package':
      return id.packageId;
    case 'template':
      return id.templateId;
    case 'package-name':
      return id.name;
    case 'offset':
      return String(id.offset);
    case 'user':
      return id.userId;
  }
}

/** Two items are the same when they lead to the same thing. */
export function recentItemKey(item: RecentItem): string {
  return item.kind === 'id' ? `${item.id.kind}:${idText(item.id)}` : `action:${item.actionId}`;
}

/** `item` on top of `items`, once, at most {@link MAX_RECENT_ITEMS}. */
export function addRecentItem(items: readonly RecentItem[], item: RecentItem): RecentItem[] {
  const key = recentItemKey(item);
  return [item, ...items.filter((other) => recentItemKey(other) !== key)].slice(
    0,
    MAX_RECENT_ITEMS,
  );
}

function toStored(item: RecentItem): StoredItem {
  return item.kind === 'id' ? { kind: 'id', text: idText(item.id), as: item.id.kind } : item;
}

function fromStored(value: unknown): RecentItem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stored = value as Partial<Record<'kind' | 'text' | 'as' | 'actionId', unknown>>;
  if (stored.kind === 'action' && typeof stored.actionId === 'string') {
    return { kind: 'action', actionId: stored.actionId };
  }
  if (stored.kind !== 'id' || typeof stored.text !== 'string') return undefined;
  // A package name is only offered among known names; this one was, when it was opened.
  const id = recognizeId(stored.text, { packageNames: [stored.text] }).candidates.find(
    (candidate) => candidate.kind === stored.as,
  );
  return id && { kind: 'id', id };
}

/** The items in `text` as stored; anything unreadable is left out. */
export function parseRecentItems(text: string | null): RecentItem[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .slice(0, MAX_RECENT_ITEMS)
      .map(fromStored)
      .filter((item): item is RecentItem => item !== undefined);
  } catch {
    return [];
  }
}

export function serializeRecentItems(items: readonly RecentItem[]): string {
  return JSON.stringify(items.map(toStored));
}

function recentItemsKey(participantId: string): string {
  return identityScopedKey('search.recent', participantId);
}

/** What the signed-in identity opened on `participantId` (read the token now). */
export function readRecentItems(participantId: string): RecentItem[] {
  try {
    return parseRecentItems(identityDataStorage()?.getItem(recentItemsKey(participantId)) ?? null);
  } catch {
    return [];
  }
}

/** Puts `item` on top of the identity's recent items on `participantId`. */
export function rememberRecentItem(participantId: string, item: RecentItem): void {
  const items = addRecentItem(readRecentItems(participantId), item);
  try {
    identityDataStorage()?.setItem(recentItemsKey(participantId), serializeRecentItems(items));
  } catch {
    // Full or refused storage: recent items are a convenience; the navigation happens anyway.
  }
}
