/**
 * "Copy as…": every admin action and every command the console sends, as a command the user can
 * run themselves (docs/design-system.md §Copy as). Pure strings; the menu is
 * `components/copy-as-menu.tsx`. Tokens never go into the text: curl reads `$TOKEN`, the Canton
 * console uses its own credentials.
 */

/** A JSON Ledger API request as the console would send it. */
export type LedgerApiRequest = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path with its parameters already in, e.g. `/v2/users/alice/rights`; percent-encoded. */
  path: string;
  /** A JSON body. */
  body?: unknown;
  /** A file body instead (a DAR): curl reads it from this local file name. */
  file?: { name: string; contentType: string };
};

/** What "Copy as…" offers for one action. */
export type CopyAsCommands = {
  request: LedgerApiRequest;
  /** The Canton console (Scala REPL) command for the same action; absent when there is none. */
  cantonConsole?: string;
};

/** A word for POSIX sh in single quotes: nothing inside is expanded. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The request as a curl command against `origin` (the console's own origin, which forwards `/v2`
 * to the participant, or the participant's JSON API). `$TOKEN` stands for the access token, so the
 * copied text holds no secret; without auth, the header is harmless.
 */
export function toCurl(request: LedgerApiRequest, origin: string): string {
  const lines = [`curl -sS -X ${request.method} ${shellQuote(`${origin}${request.path}`)}`];
  lines.push(`-H "Authorization: Bearer $TOKEN"`);
  if (request.file !== undefined) {
    lines.push(`-H ${shellQuote(`Content-Type: ${request.file.contentType}`)}`);
    lines.push(`--data-binary ${shellQuote(`@${request.file.name}`)}`);
  } else if (request.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(request.body, null, 2))}`);
  }
  return lines.join(' \\\n  ');
}

/** A Scala string literal: `"a\"b"`. Control characters are escaped so the line stays one line. */
export function scalaString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** A party id as the console takes it: `PartyId.tryFromProtoPrimitive("alice::1220…")`. */
export function scalaPartyId(party: string): string {
  return `PartyId.tryFromProtoPrimitive(${scalaString(party)})`;
}

/** `Set(a, b)` of already-rendered Scala expressions. */
export function scalaSet(items: readonly string[]): string {
  return `Set(${items.join(', ')})`;
}

/** `Map("k" -> "v")` of string pairs. */
export function scalaStringMap(entries: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(entries).map(([k, v]) => `${scalaString(k)} -> ${scalaString(v)}`);
  return `Map(${pairs.join(', ')})`;
}

/**
 * `participant.ledger_api.users.create(id = "alice", …)` with only the arguments that differ from
 * the console's defaults, named, so the line reads like the form. `participant` stands for the
 * node's name in the user's console (often `participant1`).
 */
export function cantonConsoleCall(
  target: string,
  args: readonly (readonly [name: string, value: string | undefined])[],
): string {
  const given = args.filter((arg): arg is readonly [string, string] => arg[1] !== undefined);
  return `participant.${target}(${given.map(([name, value]) => `${name} = ${value}`).join(', ')})`;
}

/**
 * `m.updated("k", "v").removed("old")` on `base`: a merge patch of annotations (a `""` value
 * removes its key, as the JSON API's update does) as the console's modifier functions write it.
 */
export function scalaAnnotationsPatch(
  base: string,
  patch: Readonly<Record<string, string>>,
): string {
  return Object.entries(patch).reduce(
    (expression, [key, value]) =>
      value === ''
        ? `${expression}.removed(${scalaString(key)})`
        : `${expression}.updated(${scalaString(key)}, ${scalaString(value)})`,
    base,
  );
}
