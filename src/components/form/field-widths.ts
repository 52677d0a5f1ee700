/**
 * Input widths by what the field holds (docs/design-system.md §Fields): a field as wide as its
 * content reads faster than one stretched across a 1,400 px screen. Pass as `maw` so phones still
 * get the full width.
 */
export const FIELD_WIDTH = {
  /** A code, a number, a short name: currency, page size, TTL. */
  short: 220,
  /** An id or a name: user id, party hint, identity provider id. */
  medium: 420,
  /** A URL, a full party id, a template id, an audience. */
  long: 640,
} as const;
