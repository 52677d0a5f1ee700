import { z } from 'zod';

/**
 * The "open an update" form: an update id or an offset. Update ids are hex SHA-256 multihashes,
 * `1220` and 64 hex digits (ledger-api-behaviour.md §7.4); offsets are positive integers. Checked
 * here so that a typo is named on the field instead of coming back as the participant's 400.
 */

export const UPDATE_ID_PATTERN = /^1220[0-9a-f]{64}$/;

export type OpenUpdateValues = { lookup: 'id' | 'offset'; value: string };

export const emptyOpenUpdateValues: OpenUpdateValues = { lookup: 'id', value: '' };

export const openUpdateSchema = z
  .object({ lookup: z.enum(['id', 'offset']), value: z.string() })
  .superRefine(({ lookup, value }, context) => {
    const text = value.trim();
    if (text === '') {
      context.addIssue({
        code: 'custom',
        path: ['value'],
        message: lookup === 'id' ? 'Enter an update id' : 'Enter an offset',
      });
      return;
    }
    if (lookup === 'id' && !UPDATE_ID_PATTERN.test(text.toLowerCase())) {
      context.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'An update id is 1220 followed by 64 hexadecimal digits',
      });
    }
    if (lookup === 'offset' && !/^[0-9]+$/.test(text)) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'An offset is a whole number' });
    } else if (lookup === 'offset' && !(Number(text) > 0 && Number.isSafeInteger(Number(text)))) {
      context.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'An offset is a positive whole number',
      });
    }
  });

/** What to look up, from valid form values. */
export function toUpdateRef({
  lookup,
  value,
}: OpenUpdateValues): { updateId: string } | { offset: number } {
  const text = value.trim();
  return lookup === 'id' ? { updateId: text.toLowerCase() } : { offset: Number(text) };
}
