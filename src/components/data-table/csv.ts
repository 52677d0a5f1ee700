/** A value of one CSV cell; `undefined` and `null` become an empty cell. */
export type CsvValue = string | number | boolean | null | undefined;

// A spreadsheet evaluates a cell that starts with one of these as a formula, so exported data
// could run code when opened (OWASP "CSV injection"). Tab and carriage return count as well.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * One cell as RFC 4180 writes it: quoted when it holds a quote, comma, line break or edge
 * whitespace, with quotes doubled. Text that a spreadsheet would run as a formula gets a leading
 * `'`, which spreadsheets show as text and do not evaluate.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A CSV document: a header line, then one line per row, CRLF-terminated as RFC 4180 asks.
 *
 * @example toCsv(['id', 'active'], [['alice', true]]) === 'id,active\r\nalice,true\r\n'
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
