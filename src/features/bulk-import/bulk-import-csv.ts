/**
 * A small RFC 4180 CSV reader for bulk import files: quoted fields with doubled quotes, commas and
 * line breaks inside quotes, CRLF, LF or lone CR line ends, a leading UTF-8 BOM. Strict where a
 * lenient reader would guess (a quote inside an unquoted field, text after a closing quote, an
 * unterminated quote): a file that reads differently in a spreadsheet should be refused, not
 * imported wrong. Writing CSV is `toCsv` in `components/data-table/csv.ts`.
 */

export type CsvRecord = {
  /** The fields, as written (unquoted). */
  fields: string[];
  /** The 1-based line of the file on which the record starts, for messages. */
  line: number;
};

export type CsvParseResult =
  { ok: true; records: CsvRecord[] } | { ok: false; problem: string; line: number };

export type CsvParseLimits = {
  /** Records beyond this stop the parse with a problem (the header counts). */
  maxRecords: number;
  /** Fields per record. */
  maxFields: number;
  /** Characters per field. */
  maxFieldLength: number;
};

const BOM = '\uFEFF';

/** Reads `text` into records; blank lines (not inside quotes) are skipped. */
export function parseCsv(text: string, limits: CsvParseLimits): CsvParseResult {
  const input = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  // Whether the current field started with a quote, and whether that quote is still open.
  let quoted = false;
  let inQuotes = false;
  // Whether the current record has any content yet (a blank line has none).
  let started = false;
  let index = 0;

  const fail = (problem: string): CsvParseResult => ({ ok: false, problem, line });

  const endField = (): CsvParseResult | undefined => {
    if (field.length > limits.maxFieldLength) {
      return {
        ok: false,
        problem: `A field is longer than ${String(limits.maxFieldLength)} characters`,
        line: recordLine,
      };
    }
    fields.push(field);
    field = '';
    quoted = false;
    if (fields.length > limits.maxFields) {
      return {
        ok: false,
        problem: `A record has more than ${String(limits.maxFields)} fields`,
        line: recordLine,
      };
    }
    return undefined;
  };

  const endRecord = (): CsvParseResult | undefined => {
    if (started) {
      const problem = endField();
      if (problem) return problem;
      records.push({ fields, line: recordLine });
      if (records.length > limits.maxRecords) {
        return {
          ok: false,
          problem: `The file has more than ${String(limits.maxRecords - 1)} rows`,
          line: recordLine,
        };
      }
    }
    fields = [];
    field = '';
    quoted = false;
    started = false;
    return undefined;
  };

  while (index < input.length) {
    const char = input.charAt(index);
    if (inQuotes) {
      if (char === '"') {
        if (input[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        inQuotes = false;
        index += 1;
        const next = input[index];
        if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') {
          return fail('Text after a closing quote: a quoted field must end at "," or a line end');
        }
        continue;
      }
      if (char === '\n' || (char === '\r' && input[index + 1] !== '\n')) line += 1;
      field += char;
      index += 1;
      continue;
    }
    if (char === ',') {
      started = true;
      const problem = endField();
      if (problem) return problem;
      index += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      const problem = endRecord();
      if (problem) return problem;
      index += char === '\r' && input[index + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    if (char === '"') {
      if (field.length > 0 || quoted) {
        return fail('A quote inside an unquoted field: put the whole field in quotes');
      }
      quoted = true;
      inQuotes = true;
      started = true;
      index += 1;
      continue;
    }
    field += char;
    started = true;
    index += 1;
  }
  if (inQuotes) return { ok: false, problem: 'A quoted field is never closed', line: recordLine };
  const problem = endRecord();
  if (problem) return problem;
  return { ok: true, records };
}
