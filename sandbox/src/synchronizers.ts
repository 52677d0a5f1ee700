import { createHash } from 'node:crypto';

/** Multihash of SHA-256 as Canton prints fingerprints: `1220` + 64 hex characters. */
export function fingerprintOf(seed: string) {
  return `1220${createHash('sha256').update(seed).digest('hex')}`;
}

/** A synchronizer the sandbox is connected to. */
export type ConnectedSynchronizer = { alias: string; id: string };

/** The sandbox's synchronizers when none are asked for: one, as in Canton's sandbox topology. */
export const DEFAULT_SYNCHRONIZERS: readonly string[] = ['local'];

/** Canton's synchronizer alias and the identifier part of its id: kept to a safe alphabet. */
const SYNCHRONIZER_ALIAS = /^[A-Za-z0-9_-]{1,185}$/;

/**
 * The synchronizers for `aliases`, in order, each with the id `<alias>::<fingerprint>` (so the
 * default `local` keeps the id it always had). Throws an Error naming a bad or repeated alias.
 */
export function connectedSynchronizers(
  aliases: readonly string[] = DEFAULT_SYNCHRONIZERS,
): ConnectedSynchronizer[] {
  if (aliases.length === 0) throw new Error('The sandbox needs at least one synchronizer');
  const seen = new Set<string>();
  return aliases.map((alias) => {
    if (!SYNCHRONIZER_ALIAS.test(alias)) {
      throw new Error(
        `Invalid synchronizer alias "${alias}": use 1 to 185 letters, digits, "-" or "_"`,
      );
    }
    if (seen.has(alias)) throw new Error(`Synchronizer alias "${alias}" is given twice`);
    seen.add(alias);
    return {
      alias,
      id: `${alias}::${fingerprintOf(`ledger-console-sandbox/synchronizer/${alias}`)}`,
    };
  });
}
