/**
 * A `matchMedia` whose lists answer `matches(query)` once and never change: jsdom has no media
 * queries, and nothing in the app listens for a change during a test.
 */
export function fixedMatchMedia(matches: (query: string) => boolean) {
  return (query: string): MediaQueryList =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      // Mantine never calls these, but MediaQueryList still declares them.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      addListener: () => undefined,
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) satisfies MediaQueryList;
}
