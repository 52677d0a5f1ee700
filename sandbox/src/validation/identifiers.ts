import {
  damlLfStringMessage,
  idStringProblem,
  isValidIdString,
  LEDGER_STRING,
  PACKAGE_ID_STRING,
  PARTY_STRING,
  USER_ID_STRING,
  type IdStringRule,
} from '@ledger-console/participant/identifiers';

// The rules are the participant package's; here they are worded as the real server words them.

export { userIdRegexMessage } from '@ledger-console/participant/identifiers';

export function isValidUserId(id: string) {
  return isValidIdString(USER_ID_STRING, id);
}

function serverProblem(rule: IdStringRule, value: string): string | undefined {
  const problem = idStringProblem(rule, value);
  return problem && damlLfStringMessage(rule, value, problem);
}

/** Why `party` is not a valid Daml-LF party string, or undefined when it is. */
export function partyProblem(party: string) {
  return serverProblem(PARTY_STRING, party);
}

/** Why `value` is not a valid LedgerString, or undefined when it is. */
export function ledgerStringProblem(value: string) {
  return serverProblem(LEDGER_STRING, value);
}

/** Daml-LF's `PackageName`: letters, digits, `-` and `_`, at most 255 (IdString.scala). */
const PACKAGE_NAME_STRING: IdStringRule = {
  name: 'Package Name',
  char: /^[a-zA-Z0-9\-_]$/,
  maxLength: 255,
};

/** Why `name` is not a valid Daml-LF package name, or undefined when it is. */
export function packageNameProblem(name: string) {
  return serverProblem(PACKAGE_NAME_STRING, name);
}

export function isValidPackageId(id: string) {
  return isValidIdString(PACKAGE_ID_STRING, id);
}

/** Why `id` is not a valid Daml-LF package id, in Daml's own words, or undefined when it is. */
export function packageIdProblem(id: string) {
  return serverProblem(PACKAGE_ID_STRING, id);
}
