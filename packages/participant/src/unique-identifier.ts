/**
 * Canton's UniqueIdentifier, the form of party, participant and synchronizer ids:
 * `identifier::namespace`, the namespace being the fingerprint of the key that owns it
 * (`1220…`). A party's identifier is the hint it was allocated with.
 */

export const UNIQUE_IDENTIFIER_SEPARATOR = '::';

export type UniqueIdentifierParts = { identifier: string; namespace: string };

/** The two parts of `id`, split at its first `::`; undefined when it has none. */
export function splitUniqueIdentifier(id: string): UniqueIdentifierParts | undefined {
  const separator = id.indexOf(UNIQUE_IDENTIFIER_SEPARATOR);
  if (separator < 0) return undefined;
  return {
    identifier: id.slice(0, separator),
    namespace: id.slice(separator + UNIQUE_IDENTIFIER_SEPARATOR.length),
  };
}

/** The hint a party id was allocated with; undefined when the id has no `::` or an empty hint. */
export function partyHint(partyId: string): string | undefined {
  const identifier = splitUniqueIdentifier(partyId)?.identifier;
  return identifier === '' ? undefined : identifier;
}
