import { revealControls } from '@/lib/text/display-text';
import { shortenIdentifier } from '@/lib/text/format';

/*
 * Who is signed in, in words a person recognises. The ID token's claims and the access token's
 * subject are chosen by whoever controls the provider (or pasted the token): they are read as
 * text only, with their hidden characters shown and their length bounded, before anything shows
 * them.
 */

/** The longest claim value the console keeps: a name is far shorter; more is noise or an attack. */
export const MAX_CLAIM_TEXT = 120;

/** The ID token claims that name the person, best first (OpenID Connect Core §5.1). */
const NAME_CLAIMS = ['name', 'preferred_username', 'email'] as const;

/** A claim as the console shows it: one line, hidden characters shown, at most MAX_CLAIM_TEXT. */
export function claimText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Cut before revealing, so a claim of a million characters costs nothing; then bound again,
  // since each revealed character becomes a ⟨U+XXXX⟩ marker.
  const oneLine = value
    .slice(0, MAX_CLAIM_TEXT * 2)
    .replace(/\s+/gu, ' ')
    .trim();
  if (oneLine === '') return undefined;
  return fitText(revealControls(oneLine), MAX_CLAIM_TEXT);
}

/** The person's name from ID token claims: `name`, else `preferred_username`, else `email`. */
export function personNameOf(
  claims: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  if (claims === undefined) return undefined;
  for (const claim of NAME_CLAIMS) {
    const text = claimText(claims[claim]);
    if (text !== undefined) return text;
  }
  return undefined;
}

// Ideographs, kana and Hangul take about two Latin letters' width.
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** How many narrow characters' width `text` takes, roughly. */
export function textWidth(text: string): number {
  let width = 0;
  for (const { segment } of new Intl.Segmenter().segment(text)) width += WIDE.test(segment) ? 2 : 1;
  return width;
}

/**
 * `text` within `budget` narrow characters, never cut inside a word: whole words up to the last
 * that fits, then "…". A first word that alone is too long (an id, a UUID, an address) is
 * shortened in the middle, as the console shows every id, so both its ends stay readable.
 */
export function fitText(text: string, budget: number): string {
  if (textWidth(text) <= budget) return text;
  const words = text.split(' ');
  let kept = '';
  for (const word of words) {
    const next = kept === '' ? word : `${kept} ${word}`;
    // Room for the " …" that says words were left out.
    if (textWidth(next) + 2 > budget) break;
    kept = next;
  }
  if (kept !== '') return `${kept.replace(/[\s,;:.·-]+$/u, '')} …`;
  return shortenInMiddle(words[0] ?? '', budget);
}

/** A single long token: its head and tail around "…", within `budget`. */
function shortenInMiddle(token: string, budget: number): string {
  const shortened = shortenIdentifier(token);
  if (shortened !== token && textWidth(shortened) <= budget) return shortened;
  // By grapheme, so an accented letter or an emoji is never split.
  const chars = Array.from(new Intl.Segmenter().segment(token), (part) => part.segment);
  const tail = Math.min(4, Math.max(1, Math.floor((budget - 1) / 3)));
  const head = Math.max(1, budget - 1 - tail);
  return `${chars.slice(0, head).join('')}…${chars.slice(-tail).join('')}`;
}
