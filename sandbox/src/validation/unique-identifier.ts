import { UNIQUE_IDENTIFIER_SEPARATOR } from '@ledger-console/participant/unique-identifier';
import { partyProblem } from './identifiers';

// String185 (an identifier) and String68 (a fingerprint) in Canton's CantonRequireTypes.
const MAX_IDENTIFIER_LENGTH = 185;
const MAX_FINGERPRINT_LENGTH = 68;

/** LengthLimitedString.create's refusal. */
export function lengthLimitProblem(value: string, maxLength: number): string | undefined {
  if (value.length <= maxLength) return undefined;
  return `The given string has a maximum length of ${String(maxLength)} but a string of length ${String(value.length)} ('${value}') was given`;
}

/**
 * SafeSimpleString (UniqueIdentifier.verifyValidString): a Daml-LF party string without the
 * `::` that separates an identifier from its namespace.
 */
export function safeSimpleStringProblem(value: string): string | undefined {
  return (
    partyProblem(value) ??
    (value.includes(UNIQUE_IDENTIFIER_SEPARATOR)
      ? `String contains reserved delimiter \`${UNIQUE_IDENTIFIER_SEPARATOR}\`.`
      : undefined)
  );
}

/**
 * Why `id` is not a UniqueIdentifier `<identifier>::<fingerprint>` (a party, participant or
 * synchronizer id), in the words of Canton's UniqueIdentifier.fromProtoPrimitive_; undefined when
 * it is one.
 */
export function uniqueIdentifierProblem(id: string): string | undefined {
  const separator = id.indexOf(UNIQUE_IDENTIFIER_SEPARATOR);
  if (separator > 0) {
    const identifier = id.slice(0, separator);
    const fingerprint = id.slice(separator + UNIQUE_IDENTIFIER_SEPARATOR.length);
    const shown = id.slice(0, 200);
    const identifierProblem =
      safeSimpleStringProblem(identifier) ?? lengthLimitProblem(identifier, MAX_IDENTIFIER_LENGTH);
    if (identifierProblem) {
      return `Identifier decoding of \`${shown}\` failed with: ${identifierProblem}`;
    }
    const fingerprintProblem =
      safeSimpleStringProblem(fingerprint) ??
      lengthLimitProblem(fingerprint, MAX_FINGERPRINT_LENGTH);
    if (fingerprintProblem) {
      return `Fingerprint decoding of \`${shown}\` failed with: ${fingerprintProblem}`;
    }
    return undefined;
  }
  if (separator === 0) return `Invalid unique identifier \`${id}\` with empty identifier.`;
  if (id === '') return 'Empty string is not a valid unique identifier.';
  return `Invalid unique identifier \`${id}\` with missing namespace.`;
}
