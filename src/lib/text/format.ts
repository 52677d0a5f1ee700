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

/**
 * `<package id>:<module>:<entity>` (a template or interface id) → `f36ffe…dfd6:Demo.Iou:Iou`: the
 * package id cut as `shortenIdentifier` cuts a namespace, the qualified name (what a reader looks
 * for) whole. A package-name reference (`#sandbox-demo:Demo.Iou:Iou`) and anything that is not
 * three parts stay as they are.
 */
export function shortenQualifiedName(value: string): string {
  const [packageRef, module, entity, ...rest] = value.split(':');
  if (packageRef === undefined || module === undefined || entity === undefined) return value;
  if (rest.length > 0 || packageRef.startsWith('#')) return value;
  return `${shortenIdentifier(packageRef)}:${module}:${entity}`;
}

/**
 * An id split after each `:` and `.`, where a line may break when it does not fit (`<wbr>`
 * between the parts): `a:B.C:D` → `a:`, `B.`, `C:`, `D`. Joined, the parts are the id again.
 */
export function breakAfterSeparators(value: string): string[] {
  return value.match(/[^:.]*(?:[:.]+|$)/g)?.filter((part) => part !== '') ?? [value];
}

/** `one` for exactly 1, else `many`: `plural(3, 'belongs', 'belong')` → `belong`. */
export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** A number with its noun in agreement: `formatCount(1, 'user', 'users')` → `1 user`. */
export function formatCount(n: number, one: string, many: string): string {
  return `${String(n)} ${plural(n, one, many)}`;
}

const trafficBytes = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A traffic cost, which Canton counts in bytes of sequenced traffic: `12,345 bytes`. Grouped the
 * same way in every locale, so a cost reads the same on screen, in exports and in bug reports.
 */
export function formatTrafficCost(bytes: number): string {
  return `${trafficBytes.format(bytes)} ${plural(bytes, 'byte', 'bytes')}`;
}

// Building an Intl formatter costs far more than using one, and a list of times (a virtualized
// table while it scrolls) formats hundreds a second: one per locale is kept.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const exactFormats = new Map<string, Intl.DateTimeFormat>();
const absoluteFormats = new Map<string, Intl.DateTimeFormat>();

function cachedFormat<F>(cache: Map<string, F>, locale: string | undefined, create: () => F): F {
  const key = locale ?? '';
  let format = cache.get(key);
  if (format === undefined) {
    format = create();
    cache.set(key, format);
  }
  return format;
}

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/**
 * "just now", "5 minutes ago", "in 2 hours", "yesterday": how far `epochMs` is from `nowMs`, in the
 * largest unit that is at least one, in the user's locale. Under 45 seconds either way is "just
 * now" (`now` in Intl's words), so a clock a few seconds off does not read as the future.
 */
export function formatRelativeTime(epochMs: number, nowMs: number, locale?: string): string {
  const format = cachedFormat(relativeFormats, locale, () => {
    return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  });
  const delta = epochMs - nowMs;
  if (Math.abs(delta) < 45_000) return format.format(0, 'second');
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(delta) >= size) return format.format(Math.round(delta / size), unit);
  }
  return format.format(Math.round(delta / 60_000), 'minute');
}

/** The exact time, for the tooltip behind a relative one: "24 Nov 2026, 14:03:27 UTC+1". */
export function formatExactTime(epochMs: number, locale?: string): string {
  const format = cachedFormat(exactFormats, locale, () => {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'long' });
  });
  return format.format(new Date(epochMs));
}

/**
 * The time as a table cell shows it when the user reads times as absolute: "24 Nov 2026, 14:03:27"
 * (date and seconds, in the user's locale and time zone; the zone is in the hover's exact time).
 */
export function formatAbsoluteTime(epochMs: number, locale?: string): string {
  const format = cachedFormat(absoluteFormats, locale, () => {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  });
  return format.format(new Date(epochMs));
}

/**
 * Builds and first uses the user's-locale formatters behind every time on screen. A page's first
 * `Intl.DateTimeFormat` loads the locale's calendar and zone data, 14–51 ms in Chromium: the first
 * render of a table of times paid it, before its first row showed (issue 29). Call it while idle.
 */
export function prepareTimeFormats(): void {
  const now = Date.now();
  formatExactTime(now);
  formatAbsoluteTime(now);
  formatRelativeTime(now, now);
}
