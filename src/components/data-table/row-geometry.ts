// One line per row at a fixed height, so the virtualizer never has to measure (the height is also
// in data-table.module.css).
const ROW_HEIGHT = 40;
// A card is a title and a line per further column; only a first guess, cards are measured.
const CARD_LINE_HEIGHT = 26;
const CARD_PADDING = 36;
export const OVERSCAN = 12;
// A scroll box with no layout yet (hidden, or jsdom in tests) measures 0 px high; it then still
// renders a screenful of rows instead of none.
export const FALLBACK_RECT = { width: 0, height: 600 };

export function estimatedRowHeight(isCards: boolean, columns: number): number {
  return isCards ? CARD_PADDING + CARD_LINE_HEIGHT * columns : ROW_HEIGHT;
}

/**
 * What the virtualizer renders of a table scrolled to the top, before its code is in: the rows of
 * a screenful and the overscan, and the height of the rest.
 */
export function firstScreenful(
  count: number,
  isCards: boolean,
  columns: number,
  overscan = OVERSCAN,
) {
  const height = estimatedRowHeight(isCards, columns);
  const shown = Math.min(count, Math.ceil(FALLBACK_RECT.height / height) + overscan);
  return {
    items: Array.from({ length: shown }, (_, index) => ({
      index,
      start: index * height,
      end: (index + 1) * height,
    })),
    totalSize: count * height,
  };
}
