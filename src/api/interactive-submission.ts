import { mutationOptions } from '@tanstack/react-query';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { api, unwrap } from './client';
import { ledgerEffectsFormat, type JsCommands } from './commands';
import { decodePreparedInWorker } from './prepared-transaction-decoder';
import type { Schemas } from './schema';
import { fromLedgerEffectsTransaction } from './transaction-tree-builder';
import { updateQueries } from './updates';

/**
 * Interactive submission (`/v2/interactive-submission/*`): prepare the composer's commands into a
 * transaction to look at (and, for an external party, to sign), then execute exactly those bytes
 * with the parties' signatures. The prepared transaction is decoded in the browser by
 * `prepared-transaction-adapter.ts`, in a Web Worker started when a preview is first asked for.
 */

export const PREPARE_ENDPOINT = '/v2/interactive-submission/prepare';
export const EXECUTE_ENDPOINT = '/v2/interactive-submission/executeAndWaitForTransaction';

export type PrepareResponse = Schemas['JsPrepareSubmissionResponse'];
export type HashingSchemeVersion = PrepareResponse['hashingSchemeVersion'];
export type CostEstimation = Schemas['CostEstimation'];
/** One signature as the participant takes it (OpenAPI `Signature`). */
export type PartySignature = Schemas['Signature'];

/** A node of the prepared transaction that no committed transaction shows. */
export type PreparedHiddenNode =
  | {
      kind: 'fetch';
      nodeId: number;
      contractId: string;
      templateId: string;
      actingParties: readonly string[];
    }
  | {
      /** Rolled back: nothing under it is committed. */
      kind: 'rollback';
      nodeId: number;
      /** The nodes under it, at any depth. */
      descendantCount: number;
    };

/** A contract the transaction reads (exercises or fetches), as prepared from the ledger. */
export type PreparedInputContract = {
  contractId: string;
  templateId: string;
  packageName: string;
  createArgument: unknown;
  signatories: readonly string[];
  observers: readonly string[];
  createdAt: string;
};

/** The participant's hash of the prepared transaction next to the one recomputed here. */
export type HashVerdict = {
  /** `HASHING_SCHEME_VERSION_V2`, … */
  scheme: string;
  /** The participant's hash as it answered it. */
  base64: string;
  hex: string;
  /** Recomputed in the browser from the bytes; null when it could not be. */
  computed: string | null;
  isMatching: boolean;
  /** Why it could not be recomputed. */
  problem?: string;
};

export type PreparedMetadata = {
  actAs: readonly string[];
  commandId: string;
  synchronizerId: string;
  transactionUuid: string;
  preparationTime: string;
  /** Ledger time bounds the participant set (the transaction reads the time), if any. */
  minLedgerEffectiveTime: string | undefined;
  maxLedgerEffectiveTime: string | undefined;
  maxRecordTime: string | undefined;
};

/** What a prepared transaction holds, decoded from its bytes. */
export type PreparedPreview = {
  /** As a committed transaction's tree: creates and exercises, by their node ids. */
  tree: TransactionTree;
  hidden: readonly PreparedHiddenNode[];
  inputContracts: readonly PreparedInputContract[];
  metadata: PreparedMetadata;
  hash: HashVerdict;
  byteLength: number;
};

/** A prepare's answer with the commands that made it and what its bytes decode to. */
export type Prepared = {
  request: JsCommands;
  response: PrepareResponse;
  preview: PreparedPreview;
};

/**
 * The prepare body for the composer's commands: the same batch Submit sends, less what prepare
 * does not take (workflow id and deduplication period; the latter goes with execute).
 */
export function prepareRequestBody(commands: JsCommands): Schemas['JsPrepareSubmissionRequest'] {
  const minLedgerTime: Schemas['MinLedgerTime'] | undefined =
    commands.minLedgerTimeAbs !== undefined
      ? { time: { MinLedgerTimeAbs: { value: commands.minLedgerTimeAbs } } }
      : commands.minLedgerTimeRel !== undefined
        ? { time: { MinLedgerTimeRel: { value: commands.minLedgerTimeRel } } }
        : undefined;
  return {
    commands: commands.commands,
    commandId: commands.commandId,
    actAs: commands.actAs,
    ...(commands.userId ? { userId: commands.userId } : {}),
    ...(commands.readAs && commands.readAs.length > 0 ? { readAs: commands.readAs } : {}),
    ...(minLedgerTime ? { minLedgerTime } : {}),
    ...(commands.disclosedContracts && commands.disclosedContracts.length > 0
      ? { disclosedContracts: commands.disclosedContracts }
      : {}),
    ...(commands.synchronizerId ? { synchronizerId: commands.synchronizerId } : {}),
    ...(commands.packageIdSelectionPreference
      ? { packageIdSelectionPreference: commands.packageIdSelectionPreference }
      : {}),
    // The hash is recomputed here; the participant's explanation of it is not needed.
    verboseHashing: false,
  };
}

/** The exact prepare request (what {@link prepareSubmission} posts and "Copy as…" copies). */
export function prepareRequest(commands: JsCommands): LedgerApiRequest {
  return { method: 'POST', path: PREPARE_ENDPOINT, body: prepareRequestBody(commands) };
}

/**
 * Decodes a prepare answer in the browser, in a Web Worker: the protobuf bindings stay out of the
 * page's chunks, and the decode and hash off its thread.
 */
export function decodePrepared(response: PrepareResponse): Promise<PreparedPreview> {
  return decodePreparedInWorker(response);
}

/** Prepares the commands and decodes what would be committed. */
export async function prepareSubmission(commands: JsCommands): Promise<Prepared> {
  const response = unwrap(await api.POST(PREPARE_ENDPOINT, { body: prepareRequestBody(commands) }));
  return { request: commands, response, preview: await decodePrepared(response) };
}

export type ExecuteInput = {
  request: JsCommands;
  response: PrepareResponse;
  /** Each signing party's signatures. */
  signatures: readonly { party: string; signatures: readonly PartySignature[] }[];
  /** Fresh per attempt: it correlates this execution's outcome. */
  submissionId: string;
};

/**
 * The execute body: the prepared transaction exactly as prepare answered it (the same base64
 * text, never re-encoded, so what is executed is what was hashed and signed), the signatures,
 * the hashing scheme prepare used, the batch's deduplication period, and the LEDGER_EFFECTS
 * format that gives the committed transaction's tree.
 */
export function executeRequestBody({
  request,
  response,
  signatures,
  submissionId,
}: ExecuteInput): Schemas['JsExecuteSubmissionAndWaitForTransactionRequest'] {
  return {
    preparedTransaction: response.preparedTransaction,
    partySignatures: {
      signatures: signatures.map((entry) => ({
        party: entry.party,
        signatures: [...entry.signatures],
      })),
    },
    submissionId,
    hashingSchemeVersion: response.hashingSchemeVersion,
    ...(request.userId ? { userId: request.userId } : {}),
    ...(request.deduplicationPeriod ? { deduplicationPeriod: request.deduplicationPeriod } : {}),
    transactionFormat: ledgerEffectsFormat([...new Set(request.actAs)]),
  };
}

/** The exact execute request (what {@link executeAndWaitForTransaction} posts). */
export function executeRequest(input: ExecuteInput): LedgerApiRequest {
  return { method: 'POST', path: EXECUTE_ENDPOINT, body: executeRequestBody(input) };
}

export type Executed = {
  tree: TransactionTree;
  /** The hash the parties signed, hex, as the committed transaction reports it. */
  externalTransactionHash: string | null;
};

/** Executes a prepared transaction with its signatures and waits for the committed transaction. */
export async function executeAndWaitForTransaction(input: ExecuteInput): Promise<Executed> {
  const { transaction } = unwrap(
    await api.POST(EXECUTE_ENDPOINT, { body: executeRequestBody(input) }),
  );
  return {
    tree: fromLedgerEffectsTransaction(transaction),
    externalTransactionHash: transaction.externalTransactionHash ?? null,
  };
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const interactiveSubmissionMutations = {
  // The composer shows failures in the form, with the same fixes as a submit's.
  prepare: () =>
    mutationOptions({
      mutationKey: ['interactive-submission', 'prepare'],
      mutationFn: prepareSubmission,
      meta: { errorDisplay: 'inline' },
    }),
  execute: () =>
    mutationOptions({
      mutationKey: ['interactive-submission', 'execute'],
      mutationFn: executeAndWaitForTransaction,
      meta: { errorDisplay: 'inline', invalidates: [[...updateQueries.all(), 'recent']] },
    }),
};
