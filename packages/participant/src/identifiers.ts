/**
 * The participant's identifier strings: which characters and how many each kind allows, as
 * Daml-LF's IdString.scala defines them (ledger-api-behaviour.md §2.1, §5.1). The checks return a
 * structured problem, so the sandbox can word it as the real server does and the console as a
 * form field's message; `damlLfStringMessage` is the server's wording.
 */

/** One kind of Daml-LF identifier string. */
export type IdStringRule = {
  /** The name the server's messages use for it. */
  name: string;
  /** One allowed character. */
  char: RegExp;
  maxLength: number;
};

/** A party id (`hint::namespace`) or anything else Daml-LF calls a `Party`. */
export const PARTY_STRING: IdStringRule = {
  name: 'Party',
  char: /^[a-zA-Z0-9:\-_ ]$/,
  maxLength: 255,
};

/** Command, workflow and submission ids, identity provider ids… */
export const LEDGER_STRING: IdStringRule = {
  name: 'Ledger String',
  char: /^[a-zA-Z0-9._:\-#/ ]$/,
  maxLength: 255,
};

export const PACKAGE_ID_STRING: IdStringRule = {
  name: 'Package ID',
  char: /^[a-zA-Z0-9\-_ ]$/,
  maxLength: 64,
};

/** The symbols a user id may contain besides ASCII letters and digits (Daml-LF `UserId`). */
export const USER_ID_SYMBOLS = "@^$.!`-#+'~_|:()";

export const USER_ID_STRING: IdStringRule = {
  name: 'User ID',
  char: /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]$/,
  maxLength: 128,
};

/** The regex the real server prints in its messages about a user id. */
export const USER_ID_REGEX_TEXT = "[a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}";

/** Canton's UniqueIdentifier caps a party id's hint shorter than the whole id. */
export const MAX_PARTY_HINT_LENGTH = 185;

/** What is wrong with an identifier string, in the order Daml-LF checks. */
export type IdStringProblem =
  | { kind: 'empty' }
  | { kind: 'too-long'; length: number; maxLength: number }
  | { kind: 'bad-char'; char: string };

/** The first character of `value` that `rule` does not allow, or undefined. */
export function firstDisallowedChar(rule: IdStringRule, value: string): string | undefined {
  for (const char of value) {
    if (!rule.char.test(char)) return char;
  }
  return undefined;
}

/** Why `value` is not a valid `rule` string, or undefined when it is. */
export function idStringProblem(rule: IdStringRule, value: string): IdStringProblem | undefined {
  if (value.length === 0) return { kind: 'empty' };
  if (value.length > rule.maxLength) {
    return { kind: 'too-long', length: value.length, maxLength: rule.maxLength };
  }
  const char = firstDisallowedChar(rule, value);
  return char === undefined ? undefined : { kind: 'bad-char', char };
}

export function isValidIdString(rule: IdStringRule, value: string): boolean {
  return idStringProblem(rule, value) === undefined;
}

/** The participant's message for `problem` with `value` (IdString.scala's wording). */
export function damlLfStringMessage(
  rule: IdStringRule,
  value: string,
  problem: IdStringProblem,
): string {
  switch (problem.kind) {
    case 'empty':
      return `Daml-LF ${rule.name} is empty`;
    case 'too-long':
      return `Daml-LF ${rule.name} is too long (max: ${problem.maxLength})`;
    case 'bad-char': {
      const code = problem.char.codePointAt(0) ?? 0;
      return `non expected character 0x${code.toString(16)} in Daml-LF ${rule.name} "${value}"`;
    }
  }
}

/** The participant's message for a user id outside `USER_ID_REGEX_TEXT`. */
export function userIdRegexMessage(id: string): string {
  return `User ID "${id}" does not match regex "${USER_ID_REGEX_TEXT}"`;
}
