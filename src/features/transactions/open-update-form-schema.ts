import { z } from 'zod';
import { MULTIHASH as UPDATE_ID_PATTERN } from '@/lib/values/id-recognition';

/**
 * The "open an update" search box: an update id or an offset, told apart by their form. Update
 * ids are hex SHA-256 multihashes, `1220` and 64 hex digits (ledger-api-behaviour.md §7.4);
 * offsets are positive integers, at most 16 digits, so a run of digits is an offset unless it has
 * an update id's length. Checked here so that a typo is named on the field instead of coming back
 * as the participant's 400.
 */

export type OpenUpdateValues = { value: string };

export const emptyOpenUpdateValues: OpenUpdateValues = { value: '' };

/** What was typed looks like an offset (digits only, and not an update id's 68 of them). */
function isOffsetLike(text: string): boolean {
  return /^[0-9]+$/.test(text) && !UPDATE_ID_PATTERN.test(text);
}

export const openUpdateSchema = z
  .object({ value: z.string() })
  .superRefine(({ value }, context) => {
    const text = value.trim();
    const problem = (message: string) => {
      context.addIssue({ code: 'custom', path: ['value'], message });
    };
    if (text === '') {
      problem('Enter an update id or an offset');
      return;
    }
    if (isOffsetLike(text)) {
      if (!(Number(text) > 0 && Number.isSafeInteger(Number(text)))) {
        problem('An offset is a positive whole number');
      }
      return;
    }
    if (UPDATE_ID_PATTERN.test(text.toLowerCase())) return;
    problem(
      /^[-+]?[0-9]*[.,]?[0-9]+$/.test(text)
        ? 'An offset is a positive whole number'
        : 'An update id is 1220 followed by 64 hexadecimal digits',
    );
  });

/** What to look up, from valid form values. */
export function toUpdateRef({
  value,
}: OpenUpdateValues): { updateId: string } | { offset: number } {
  const text = value.trim();
  return isOffsetLike(text) ? { offset: Number(text) } : { updateId: text.toLowerCase() };
}
