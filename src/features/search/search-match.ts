/**
 * How the search box matches what was typed against names and ids, and ranks what matched:
 * pure, so every tier and tie-break is unit-tested. Case is ignored; the text is never parsed
 * or rendered as markup, only split into plain pieces for highlighting.
 */

/** Best first: the whole text, its start, the start of one of its words, anywhere in it. */
export const MATCH_TIERS = ['exact', 'prefix', 'word-prefix', 'substring'] as const;
export type MatchTier = (typeof MATCH_TIERS)[number];

/** Where `needle` was found in one text: `[start, end)` in its characters. */
export type TextMatch = { tier: MatchTier; start: number; end: number };

/** Longer input is no name (Daml names, user ids and party ids stay well under it). */
export const MAX_NAME_QUERY_LENGTH = 256;

/** The needle as matched: trimmed, bounded, lower case; empty when there is nothing to match. */
export function normalizeNeedle(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_NAME_QUERY_LENGTH ? '' : trimmed.toLowerCase();
}

/**
 * Whether a word starts at `index` of `text`: at its start, after a separator (`.`, `:`, `-`,
 * `_`, a space…), or at a capital after a lower-case letter (`IouTransfer`).
 */
function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text.charAt(index - 1);
  const at = text.charAt(index);
  if (!/[\p{L}\p{N}]/u.test(before)) return true;
  return /\p{Ll}/u.test(before) && /\p{Lu}/u.test(at);
}

/** The best match of `needle` (as {@link normalizeNeedle} gives it) in `text`, if any. */
export function matchText(needle: string, text: string): TextMatch | undefined {
  if (needle === '') return undefined;
  const lower = text.toLowerCase();
  // Lower-casing may change the length of a few characters (`İ`): then positions would not
  // line up with the text shown, so such texts match only as a whole.
  if (lower.length !== text.length) {
    return lower === needle ? { tier: 'exact', start: 0, end: text.length } : undefined;
  }
  const first = lower.indexOf(needle);
  if (first < 0) return undefined;
  const end = (start: number) => start + needle.length;
  if (first === 0) {
    return { tier: lower.length === needle.length ? 'exact' : 'prefix', start: 0, end: end(0) };
  }
  for (let at = first; at >= 0; at = lower.indexOf(needle, at + 1)) {
    if (isWordStart(text, at)) return { tier: 'word-prefix', start: at, end: end(at) };
  }
  return { tier: 'substring', start: first, end: end(first) };
}

/** The best match among `texts` (the earlier text wins a tie), with the index of its text. */
export function matchTexts(
  needle: string,
  texts: readonly (string | undefined)[],
): (TextMatch & { field: number }) | undefined {
  let best: (TextMatch & { field: number }) | undefined;
  texts.forEach((text, field) => {
    if (text === undefined) return;
    const found = matchText(needle, text);
    if (found && (!best || tierRank(found.tier) < tierRank(best.tier))) best = { ...found, field };
  });
  return best;
}

export function tierRank(tier: MatchTier): number {
  return MATCH_TIERS.indexOf(tier);
}

/** What ranking needs of a matched thing. */
export type Ranked = {
  tier: MatchTier;
  /** Larger is more recent (an offset, a visit's position from the oldest); 0 when unknown. */
  recency: number;
  /** The text shown, for a stable order among equals. */
  label: string;
};

/** Best tier first; among equals the more recent, then by label. */
export function compareRanked(a: Ranked, b: Ranked): number {
  return (
    tierRank(a.tier) - tierRank(b.tier) || b.recency - a.recency || a.label.localeCompare(b.label)
  );
}

/**
 * The best `limit` of `items` (ranked by {@link compareRanked}), at most `perKind` of each kind,
 * so that a thousand choices named alike leave room for the one user.
 */
export function topRanked<T extends Ranked & { kind: string }>(
  items: readonly T[],
  { limit, perKind }: { limit: number; perKind: number },
): T[] {
  const taken = new Map<string, number>();
  const top: T[] = [];
  for (const item of [...items].sort(compareRanked)) {
    const count = taken.get(item.kind) ?? 0;
    if (count >= perKind) continue;
    taken.set(item.kind, count + 1);
    top.push(item);
    if (top.length >= limit) break;
  }
  return top;
}

/** `text` in pieces, the matched one marked, to render as plain text (never as markup). */
export function highlightPieces(
  text: string,
  match: { start: number; end: number } | undefined,
): { text: string; isMatch: boolean }[] {
  if (!match || match.start >= match.end || match.end > text.length) {
    return [{ text, isMatch: false }];
  }
  return [
    { text: text.slice(0, match.start), isMatch: false },
    { text: text.slice(match.start, match.end), isMatch: true },
    { text: text.slice(match.end), isMatch: false },
  ].filter((piece) => piece.text !== '');
}
