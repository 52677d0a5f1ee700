/** A value of one CSV cell; `undefined` and `null` become an empty cell. */
export type CsvValue = string | number | boolean | null | undefined;

// OWASP "CSV Injection": a spreadsheet evaluates a cell that starts with = + - @ as a formula, so
// exported data could run code when opened; a leading tab or carriage return counts as well.
// Spreadsheets also skip leading white space (a space, line feed, no-break space, an ideographic
// space or a zero-width one) and read full-width or small forms (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫) as the
// ASCII ones, which is why the first character after any such space is compared after NFKC.
const CONTROL_START = /^[\t\r]/;
const LEADING_SPACE = /^[\s\u200B-\u200D\u2060]*/u;
const FORMULA_CHARACTERS = new Set(['=', '+', '-', '@']);
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** True for text a spreadsheet might evaluate as a formula rather than show. */
function isFormulaLike(text: string): boolean {
  if (CONTROL_START.test(text)) return true;
  const rest = text.replace(LEADING_SPACE, '');
  const first = rest.codePointAt(0);
  if (first === undefined) return false;
  return FORMULA_CHARACTERS.has(String.fromCodePoint(first).normalize('NFKC'));
}

/**
 * One cell as RFC 4180 writes it: quoted when it holds a quote, comma, line break or edge
 * whitespace, with quotes doubled. Text that a spreadsheet might run as a formula gets a leading
 * `'`, which spreadsheets show as text and do not evaluate, and is always quoted (OWASP's advice
 * in full: prefix, quote, double the quotes). Numbers and booleans are data, never formulas.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (typeof value === 'string' && isFormulaLike(text)) {
    return `"'${text.replaceAll('"', '""')}"`;
  }
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
