import { shortenIdentifier } from './format';

/**
 * Text from the ledger, a token, a file or a URL is chosen by whoever wrote it, and Unicode lets
 * them hide characters in it that change what a reader sees: a right-to-left override turns
 * `\u202Egnp.exe` into "exe.png", a zero-width space makes two different party ids look alike, a
 * line separator starts a new line in the middle of a sentence. These functions make such
 * characters visible as `⟨U+202E⟩`, so what is shown is what is there.
 */

/**
 * What can hide in an identifier: control characters (C0, DEL, C1), every format character
 * (bidi embeddings, overrides, isolates and marks, zero-width spaces and joiners, word joiner,
 * byte order mark, soft hyphen, invisible operators, tag characters) and the line and paragraph
 * separators. None of them belongs in an id, so all are shown.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const HAS_HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * The characters that reorder text beyond themselves: embeddings and overrides (U+202A–U+202E) and
 * isolates (U+2066–U+2069). Free text keeps everything else (line feeds, marks, joiners that
 * Arabic or Indic scripts and emoji need), so legitimate right-to-left text reads as written.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/gu;
const HAS_BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

/** U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: `<bdi>` for plain text. */
const FSI = '\u2068';
const PDI = '\u2069';
const ISOLATED = /\u2068([^\u2066-\u2069]*)\u2069/u;

function marker(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** An identifier as shown: every control, format and separator character as `⟨U+XXXX⟩`. */
export function revealControls(text: string): string {
  return text.replace(HIDDEN, marker);
}

/**
 * Free text as shown: only the bidi embeddings, overrides and isolates as `⟨U+XXXX⟩`, which no
 * legitimate text needs once it is shown isolated; everything else stays as written.
 */
export function revealBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, marker);
}

/** Whether `revealControls` would change the text: it holds something a reader cannot see. */
export function hasSpoofingCharacters(text: string): boolean {
  return HAS_HIDDEN.test(text);
}

/** Whether the text holds a character that reorders the text around it (see `revealBidiControls`). */
export function hasBidiControls(text: string): boolean {
  return HAS_BIDI_CONTROLS.test(text);
}

/**
 * An identifier to put into a sentence: its hidden characters revealed and the result wrapped in
 * an isolate (FSI … PDI), so right-to-left letters in it cannot pull the sentence's punctuation
 * into their run. The pair cannot be closed early from inside: the value's own isolates are shown.
 */
export function isolateIdentifier(value: string): string {
  return `${FSI}${revealControls(value)}${PDI}`;
}

/** A part of a sentence built with `isolateIdentifier`: plain text, or an isolated value. */
export type TextPart = { text: string; isIsolated: boolean };

/**
 * Splits a sentence at the isolates `isolateIdentifier` put in, so a component can show each
 * isolated value as a `<bdi>` element (the isolate characters themselves are dropped).
 */
export function splitIsolates(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let rest = text;
  for (let match = ISOLATED.exec(rest); match !== null; match = ISOLATED.exec(rest)) {
    if (match.index > 0) parts.push({ text: rest.slice(0, match.index), isIsolated: false });
    parts.push({ text: match[1] ?? '', isIsolated: true });
    rest = rest.slice(match.index + match[0].length);
  }
  if (rest !== '') parts.push({ text: rest, isIsolated: false });
  return parts;
}

/**
 * An identifier as a page shows it: shortened (`shortenIdentifier`, or `shorten` for ids of
 * another shape) and revealed, with the full
 * revealed id for the hover when that differs. An id with hidden characters is never shortened:
 * the cut could drop the very characters that make it differ from the id it imitates.
 */
export function identifierText(
  value: string,
  isShortened = true,
  shorten: (value: string) => string = shortenIdentifier,
): { shown: string; title: string | undefined } {
  const revealed = revealControls(value);
  const shown = isShortened && !hasSpoofingCharacters(value) ? shorten(value) : revealed;
  return { shown, title: shown === revealed ? undefined : revealed };
}
