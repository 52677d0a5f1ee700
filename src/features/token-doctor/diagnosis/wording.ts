/**
 * The token doctor's words for what a token holds. Claim values are untrusted: {@link quote} is
 * how every one of them enters a sentence.
 */
import { isolateIdentifier, revealControls } from '@/lib/text/display-text';

const MAX_SHOWN_CHARS = 120;

/**
 * A claim value for a sentence: quoted, hidden and bidi characters shown (`⟨U+202E⟩`), long values
 * cut, and isolated, so a value cannot reorder or fake the rest of its sentence.
 */
export function quote(value: string): string {
  const visible = revealControls(value);
  const cut =
    visible.length > MAX_SHOWN_CHARS
      ? `${visible.slice(0, MAX_SHOWN_CHARS)}… (${String(visible.length)} characters)`
      : visible;
  // Cut first, then isolate: the isolate's closing character must never be cut off.
  return `"${isolateIdentifier(cut)}"`;
}

export function list(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.map(quote).join(', ');
}

export function idpName(identityProviderId: string): string {
  return identityProviderId === '' ? 'the default IdP' : `IdP ${quote(identityProviderId)}`;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function sentence(parts: readonly string[]): string {
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code > 0x20 && code < 0x7f ? `${quote(char)} (${hex})` : hex;
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
}

export function instant(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime())
    ? `${String(seconds)} s`
    : date.toISOString().replace('.000Z', 'Z');
}

export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 90) return `${String(s)} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 90) return `${String(minutes)} min`;
  const hours = Math.round(s / 3600);
  if (hours < 48) return `${String(hours)} h`;
  return `${String(Math.round(s / 86_400))} days`;
}
