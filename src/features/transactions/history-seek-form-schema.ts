import { z } from 'zod';

/**
 * The history's seek form: page forwards from an offset, or from the first update recorded at or
 * after a time. A time without a zone is the browser's local time; one with `Z` or `±hh:mm` is
 * taken as written. The seek lives in the URL (`from=<offset>` or `at=<ISO time>`), so reloads,
 * Back and shared links keep it.
 */

export type HistorySeekValues = { by: 'offset' | 'time'; value: string };

export const emptyHistorySeekValues: HistorySeekValues = { by: 'offset', value: '' };

/** Where the history starts: the ledger end (newest first), an offset or a time (oldest first). */
export type HistorySeek =
  { kind: 'latest' } | { kind: 'offset'; offset: number } | { kind: 'time'; time: string };

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;
const ZONED_TIME =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const MAX_TEXT = 64;

/** The time as an ISO string in UTC (microseconds kept when typed), or undefined if it is none. */
export function toIsoTime(text: string): string | undefined {
  const value = text.trim();
  if (value.length > MAX_TEXT) return undefined;
  const local = LOCAL_TIME.exec(value);
  let date: Date;
  let fraction: string;
  if (local) {
    const [, year, month, day, hour, minute, second = '0', digits = ''] = local;
    date = new Date(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
    );
    // Date rolls 2026-02-31 over into March: refuse instead of seeking elsewhere.
    if (date.getDate() !== Number(day) || date.getMonth() !== Number(month) - 1) return undefined;
    fraction = digits;
  } else if (ZONED_TIME.test(value)) {
    const digits = /\.(\d+)/.exec(value)?.[1] ?? '';
    date = new Date(value.replace(' ', 'T').replace(/\.\d+/, ''));
    fraction = digits;
  } else {
    return undefined;
  }
  if (Number.isNaN(date.getTime())) return undefined;
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  return `${date.toISOString().slice(0, 19)}.${micros}Z`;
}

export const historySeekSchema = z
  .object({ by: z.enum(['offset', 'time']), value: z.string() })
  .superRefine(({ by, value }, context) => {
    const text = value.trim();
    const issue = (message: string) => {
      context.addIssue({ code: 'custom', path: ['value'], message });
    };
    if (text === '') {
      issue(by === 'offset' ? 'Enter an offset' : 'Enter a date and time');
    } else if (by === 'offset') {
      if (!/^[0-9]+$/.test(text) || !(Number(text) > 0 && Number.isSafeInteger(Number(text)))) {
        issue('An offset is a positive whole number');
      }
    } else if (toIsoTime(text) === undefined) {
      issue('A date and time like 2026-11-24 14:03 or 2026-11-24T13:03:00Z');
    }
  });

/** The seek of valid form values. */
export function toHistorySeek({ by, value }: HistorySeekValues): HistorySeek {
  const text = value.trim();
  if (by === 'offset') return { kind: 'offset', offset: Number(text) };
  return { kind: 'time', time: toIsoTime(text) ?? text };
}

/** The seek a URL asks for; anything malformed is the latest updates. */
export function historySeekOf(params: URLSearchParams): HistorySeek {
  const from = params.get('from');
  if (from !== null && /^[0-9]{1,16}$/.test(from) && Number(from) > 0) {
    return { kind: 'offset', offset: Number(from) };
  }
  const at = params.get('at');
  const time = at === null ? undefined : toIsoTime(at);
  return time === undefined ? { kind: 'latest' } : { kind: 'time', time };
}

/** `params` with the seek in place of any earlier one (other params kept). */
export function withHistorySeek(params: URLSearchParams, seek: HistorySeek): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('from');
  next.delete('at');
  if (seek.kind === 'offset') next.set('from', String(seek.offset));
  if (seek.kind === 'time') next.set('at', seek.time);
  return next;
}
