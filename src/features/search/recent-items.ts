import type { RecognizedId } from '@/lib/values/id-recognition';

/**
 * The search box's recent items: the ids and pages the signed-in identity visited (visits.ts),
 * each location read back into an item by the app's routes (which a feature cannot know), so that
 * what storage holds goes through the same checks as typed input before it becomes a link.
 */

export const MAX_RECENT_ITEMS = 10;

export type RecentItem = { kind: 'id'; id: RecognizedId } | { kind: 'action'; actionId: string };

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

/**
 * The items `visits` lead back to (`itemOf` reads a location; undefined for a page that is no
 * item, such as a list's second page), newest first, once each.
 */
export function recentItemsOf(
  visits: readonly string[],
  itemOf: (location: string) => RecentItem | undefined,
): RecentItem[] {
  const seen = new Set<string>();
  const items: RecentItem[] = [];
  for (const visit of visits) {
    const item = itemOf(visit);
    if (item === undefined || seen.has(recentItemKey(item))) continue;
    seen.add(recentItemKey(item));
    items.push(item);
  }
  return items.slice(0, MAX_RECENT_ITEMS);
}
