import {
  splitUniqueIdentifier,
  UNIQUE_IDENTIFIER_SEPARATOR,
} from '@ledger-console/participant/unique-identifier';

/** A wall-clock time like "14:03:27", in the user's locale, for "last checked" style labels. */
export function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/**
 * `hint::1220abcd…ef12` → `hint::1220ab…12`: keeps the readable hint and enough of the namespace
 * fingerprint to tell ids apart; ids without a long namespace stay as they are.
 */
export function shortenIdentifier(value: string): string {
  const parts = splitUniqueIdentifier(value);
  const hint = parts ? `${parts.identifier}${UNIQUE_IDENTIFIER_SEPARATOR}` : '';
  const rest = parts ? parts.namespace : value;
  if (rest.length <= 12) return value;
  return `${hint}${rest.slice(0, 6)}…${rest.slice(-4)}`;
}

/** `one` for exactly 1, else `many`: `plural(3, 'belongs', 'belong')` → `belong`. */
export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** A number with its noun in agreement: `formatCount(1, 'user', 'users')` → `1 user`. */
export function formatCount(n: number, one: string, many: string): string {
  return `${String(n)} ${plural(n, one, many)}`;
}
