/** Route patterns and typed link builders, so no component spells a URL by hand. */
export const paths = {
  overview: { pattern: '/', to: () => '/' },
} as const;
