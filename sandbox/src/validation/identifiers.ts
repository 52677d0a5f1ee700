// Character classes of Daml-LF's IdString (daml-lf/data IdString.scala), as the reference lists them.

/** The regex the real server prints in its messages. */
export const USER_ID_REGEX_TEXT = "[a-zA-Z0-9@^$.!`\\-#+'~_|:()]{1,128}";
const USER_ID = new RegExp(`^${USER_ID_REGEX_TEXT}$`);
const PARTY_CHAR = /^[a-zA-Z0-9:\-_ ]$/;
const LEDGER_STRING_CHAR = /^[a-zA-Z0-9._:\-#/ ]$/;
const PACKAGE_ID = /^[a-zA-Z0-9\-_ ]{1,64}$/;
const PACKAGE_ID_CHAR = /^[a-zA-Z0-9\-_ ]$/;

export function isValidUserId(id: string) {
  return USER_ID.test(id);
}

export function userIdRegexMessage(id: string) {
  return `User ID "${id}" does not match regex "${USER_ID_REGEX_TEXT}"`;
}

function checkChars(value: string, allowed: RegExp, what: string, max: number): string | undefined {
  if (value.length === 0) return `Daml-LF ${what} is empty`;
  if (value.length > max) return `Daml-LF ${what} is too long (max: ${max})`;
  for (const char of value) {
    if (!allowed.test(char)) {
      const code = char.codePointAt(0) ?? 0;
      return `non expected character 0x${code.toString(16)} in Daml-LF ${what} "${value}"`;
    }
  }
  return undefined;
}

/** Why `party` is not a valid Daml-LF party string, or undefined when it is. */
export function partyProblem(party: string) {
  return checkChars(party, PARTY_CHAR, 'Party', 255);
}

/** Why `value` is not a valid LedgerString, or undefined when it is. */
export function ledgerStringProblem(value: string) {
  return checkChars(value, LEDGER_STRING_CHAR, 'Ledger String', 255);
}

export function isValidPackageId(id: string) {
  return PACKAGE_ID.test(id);
}

/** Why `id` is not a valid Daml-LF package id, in Daml's own words, or undefined when it is. */
export function packageIdProblem(id: string) {
  return checkChars(id, PACKAGE_ID_CHAR, 'Package ID', 64);
}
