import type { ApiError } from '@/lib/errors/api-error';

/**
 * Who must sign a prepared transaction, and what an execute refusal means in the user's terms
 * (issue 23 item 2). Pure.
 */

/** The namespace of a party id (`hint::namespace`): for an external party, its key's fingerprint. */
export function namespaceOf(partyId: string): string {
  const index = partyId.indexOf('::');
  return index < 0 ? '' : partyId.slice(index + 2);
}

/**
 * An external party signs for itself: its namespace is not the participant's (a local party's
 * namespace is the participant's own, ledger-api-behaviour.md and external-signing.md).
 */
export function isExternalParty(partyId: string, participantId: string): boolean {
  const own = namespaceOf(participantId);
  const namespace = namespaceOf(partyId);
  return own !== '' && namespace !== '' && namespace !== own;
}

/** How the Act as parties of a previewed batch can be committed. */
export type CommitRoute =
  /** All local: Submit, as the composer always did. */
  | { kind: 'submit' }
  /** All external: each signs the hash, then execute. */
  | { kind: 'execute'; signers: readonly string[] }
  /** A mix: nothing in the console can commit it (execute needs every actor's signature). */
  | { kind: 'mixed'; external: readonly string[]; local: readonly string[] };

export function commitRoute(actAs: readonly string[], participantId: string): CommitRoute {
  const parties = [...new Set(actAs)];
  const external = parties.filter((party) => isExternalParty(party, participantId));
  if (external.length === 0) return { kind: 'submit' };
  const local = parties.filter((party) => !external.includes(party));
  return local.length === 0
    ? { kind: 'execute', signers: external }
    : { kind: 'mixed', external, local };
}

/** What went wrong with an execute, for the sign form. */
export type ExecuteFailure =
  /** The participant did not accept a signature: another key, or another hash. */
  | { kind: 'signature'; message: string }
  /** The preview no longer holds: inputs archived, time bounds passed, already executed. */
  | { kind: 'stale'; message: string }
  | { kind: 'other'; message: string };

const STALE_CODES: Readonly<Record<string, string>> = {
  LOCAL_VERDICT_INACTIVE_CONTRACTS:
    'A contract this preview uses is no longer active (archived since it was prepared).',
  CONTRACT_NOT_FOUND: 'A contract this preview uses is no longer there.',
  LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND: 'The ledger time bounds of this preview have passed.',
  LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND: 'This preview was prepared too long ago.',
  LOCAL_VERDICT_TIMEOUT: 'The transaction timed out before it was confirmed.',
  DUPLICATE_COMMAND: 'This preview was already executed (the same command id was committed).',
};

/** The participant's answer to an execute, as the sign form shows it. */
export function classifyExecuteFailure(error: ApiError): ExecuteFailure {
  const stale = STALE_CODES[error.code];
  if (stale) return { kind: 'stale', message: `${stale} Preview again to sign a fresh one.` };
  if (
    error.code === 'FAILED_TO_EXECUTE_TRANSACTION' &&
    /valid signatures|did not provide an external signature/.test(error.body.cause)
  ) {
    return {
      kind: 'signature',
      message:
        'The participant refused the signature: it is not this party’s key’s signature of this transaction’s hash (another key, or another hash).',
    };
  }
  return { kind: 'other', message: error.body.cause };
}
