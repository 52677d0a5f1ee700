import {
  isValidIdString,
  MAX_PARTY_HINT_LENGTH,
  PARTY_STRING,
  USER_ID_STRING,
} from '@ledger-console/participant/identifiers';
import {
  splitUniqueIdentifier,
  UNIQUE_IDENTIFIER_SEPARATOR,
} from '@ledger-console/participant/unique-identifier';

/**
 * What a pasted or typed id is, told from its shape alone (ledger-api-behaviour.md §2, §5.1, §7.4),
 * for the search box: pure, so every kind and every ambiguity is unit-tested. Hex ids are taken in
 * either case and given back in lower case, as the participant issues them.
 */

/** Longer input is no id of any kind (the longest, a contract id, stays well under it). */
export const MAX_SEARCH_LENGTH = 512;

/** At most this many package names are offered for one input. */
export const MAX_PACKAGE_NAME_MATCHES = 5;

/** How a template or interface id names its package. */
export type PackageRef = { kind: 'id'; packageId: string } | { kind: 'name'; name: string };

export type RecognizedId =
  | { kind: 'party'; party: string }
  | { kind: 'update'; updateId: string }
  | { kind: 'contract'; contractId: string }
  | { kind: 'package'; packageId: string }
  | {
      kind: 'template';
      /** As the participant takes it: `<package id>:Module:Entity` or `#<name>:Module:Entity`. */
      templateId: string;
      package: PackageRef;
      /** `Module:Entity`. */
      qualifiedName: string;
    }
  | { kind: 'package-name'; name: string }
  | { kind: 'offset'; offset: number }
  | { kind: 'user'; userId: string };

export type IdKind = RecognizedId['kind'];

export type Recognition = {
  /** The input as read: trimmed, without one pair of quotes around it. */
  text: string;
  /** Each plausible reading, the most specific first; empty when there is none. */
  candidates: RecognizedId[];
  /** Set when the input is too long to be any id; it is not read at all then. */
  isTooLong: boolean;
};

export type RecognitionContext = {
  /** The names of the packages the participant knows, for package names. */
  packageNames?: readonly string[];
};

/** A SHA-256 multihash (lower case): update ids and the namespaces of party ids. */
export const MULTIHASH = /^1220[0-9a-f]{64}$/;
const PACKAGE_ID = /^[0-9a-f]{64}$/;
/**
 * Canton's contract ids: V1 is `00`, a 32-byte discriminator and a suffix; V2 (Canton 3.4) is `01`,
 * a 12-byte local part and a suffix. Always whole bytes.
 */
const CONTRACT_ID_V1 = /^00[0-9a-f]{64,}$/;
const CONTRACT_ID_V2 = /^01[0-9a-f]{24,}$/;
/** A package name as Daml allows it (`daml.yaml` `name`). */
const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A dotted Daml name: a module name, or an entity name (which may be dotted too). */
const DOTTED_NAME = /^[A-Za-z_][A-Za-z0-9_']*(?:\.[A-Za-z_][A-Za-z0-9_']*)*$/;
const POSITIVE_INTEGER = /^[0-9]+$/;
const QUOTES = ['"', "'", '`'];

/** Reads `input` as every kind of id it could be. */
export function recognizeId(input: string, context: RecognitionContext = {}): Recognition {
  // Checked before any other work, so a pasted megabyte costs nothing.
  if (input.length > MAX_SEARCH_LENGTH * 2) return { text: '', candidates: [], isTooLong: true };
  const text = unquote(input.trim());
  if (text.length > MAX_SEARCH_LENGTH) return { text: '', candidates: [], isTooLong: true };
  return { text, candidates: text === '' ? [] : candidatesOf(text, context), isTooLong: false };
}

function unquote(text: string): string {
  const first = text.charAt(0);
  if (text.length >= 2 && QUOTES.includes(first) && text.endsWith(first)) {
    return text.slice(1, -1).trim();
  }
  return text;
}

function candidatesOf(text: string, { packageNames = [] }: RecognitionContext): RecognizedId[] {
  const hex = text.toLowerCase();
  if (MULTIHASH.test(hex)) return [{ kind: 'update', updateId: hex }];
  if (PACKAGE_ID.test(hex)) return [{ kind: 'package', packageId: hex }];
  if (hex.length % 2 === 0 && (CONTRACT_ID_V1.test(hex) || CONTRACT_ID_V2.test(hex))) {
    return [{ kind: 'contract', contractId: hex }];
  }
  if (isPartyId(text)) return [{ kind: 'party', party: text }];
  const template = templateOf(text);
  if (template) return [template];

  const candidates: RecognizedId[] = [];
  const offset = offsetOf(text);
  if (offset !== undefined) candidates.push({ kind: 'offset', offset });
  for (const name of packageNameMatches(text, packageNames)) {
    candidates.push({ kind: 'package-name', name });
  }
  if (isValidIdString(USER_ID_STRING, text)) candidates.push({ kind: 'user', userId: text });
  return candidates;
}

/** `hint::1220…`: a hint and the fingerprint of the key that owns the party (§5.1). */
function isPartyId(text: string): boolean {
  const parts = splitUniqueIdentifier(text);
  if (!parts || parts.identifier === '' || parts.identifier.length > MAX_PARTY_HINT_LENGTH) {
    return false;
  }
  return (
    MULTIHASH.test(parts.namespace) &&
    !parts.identifier.includes(UNIQUE_IDENTIFIER_SEPARATOR) &&
    isValidIdString(PARTY_STRING, text)
  );
}

/** `<package id>:Module:Entity` or `#<package name>:Module:Entity`. */
function templateOf(text: string): RecognizedId | undefined {
  const parts = text.split(':');
  if (parts.length !== 3) return undefined;
  const [packagePart = '', moduleName = '', entityName = ''] = parts;
  if (!DOTTED_NAME.test(moduleName) || !DOTTED_NAME.test(entityName)) return undefined;
  const qualifiedName = `${moduleName}:${entityName}`;
  if (packagePart.startsWith('#')) {
    const name = packagePart.slice(1);
    if (!PACKAGE_NAME.test(name)) return undefined;
    return { kind: 'template', templateId: text, package: { kind: 'name', name }, qualifiedName };
  }
  const packageId = packagePart.toLowerCase();
  if (!PACKAGE_ID.test(packageId)) return undefined;
  return {
    kind: 'template',
    templateId: `${packageId}:${qualifiedName}`,
    package: { kind: 'id', packageId },
    qualifiedName,
  };
}

/** Offsets are positive integers (§7.4); leading zeros are read past. */
function offsetOf(text: string): number | undefined {
  if (!POSITIVE_INTEGER.test(text)) return undefined;
  const offset = Number(text);
  return offset > 0 && Number.isSafeInteger(offset) ? offset : undefined;
}

/** The known names `text` is, then those it is part of (ignoring case); few, in list order. */
function packageNameMatches(text: string, names: readonly string[]): string[] {
  if (!PACKAGE_NAME.test(text)) return [];
  const needle = text.toLowerCase();
  const unique = [...new Set(names)];
  const exact = unique.filter((name) => name === text);
  // One character is part of nearly every name: only a whole name is offered then.
  const partial =
    needle.length < 2
      ? []
      : unique.filter((name) => name !== text && name.toLowerCase().includes(needle));
  return [...exact, ...partial].slice(0, MAX_PACKAGE_NAME_MATCHES);
}
