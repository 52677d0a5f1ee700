import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import {
  generateAndReadTopology,
  toWirePublicKey,
  type ReadGeneratedTopology,
} from '@/api/external-parties';
import { describeError } from '@/lib/errors/api-error';
import {
  BULK_IMPORT_LIMITS,
  createRowValidator,
  invalidVerdict,
  parseImportFile,
  parseSignatureFile,
  readExternalKeys,
  verdictOf,
  type ImportContext,
  type RowResult,
  type RowVerdict,
  type ValidatedRow,
} from './bulk-import-rows';
import { runPool } from './bulk-import-pool';
import { checkPastedSignature } from '@/lib/signing/external-party-signing';
import { unsignedExternalStep, withExternalSignature } from '@/lib/onboarding/onboarding-plan';
import { type OnboardingPlan } from '@/lib/onboarding/plan-steps';
import type { PublicSigningKey } from '@/lib/signing/keys';
import type { WireSignature } from '@/lib/signing/signatures';
import { listUsersOfCallerIdp, type KnownUsers } from '@/api/onboarding/read-existing-state';
import { refreshAfterOnboarding } from '@/api/onboarding/run-onboarding-plan';
import { lookUpRow, runRowPlan } from './bulk-import-requests';

/** Rows run this many at a time: enough to be quick, few enough not to crowd the participant. */
export const RUN_CONCURRENCY = 4;
/** Lookups only read, so more of them at once. */
const CHECK_CONCURRENCY = 8;
const UPDATE_INTERVAL_MS = 100;
/**
 * Rows validated per task: planning a row takes tens of microseconds, so a 5000-row file done at
 * once would hold the page for well over 50 ms (bench:import); between slices it stays responsive.
 */
const VALIDATE_SLICE_ROWS = 250;

/** Lets the browser handle input and paint before the next slice of work. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, 0);
  });

export type ImportRowState = {
  row: ValidatedRow;
  /** Undefined until the row is checked (a cancelled check leaves some unchecked). */
  verdict: RowVerdict | undefined;
  /** Set once the row has run (or was found to need nothing). */
  result: RowResult | undefined;
};

/**
 * An external party row's topology and the person's signature of its multi-hash. The signature
 * is checked against the row's key and multi-hash when given; only a verified one is kept.
 */
export type ExternalRowState =
  | { status: 'generating' }
  | { status: 'failed'; reason: string }
  | {
      status: 'ready';
      topology: ReadGeneratedTopology;
      /** The row's key, which a signature must verify against. */
      publicKey: PublicSigningKey;
      synchronizerId: string;
      signature?: WireSignature;
      signatureProblem?: string;
    };

export type BulkImportPhase = 'empty' | 'checking' | 'ready' | 'running';

export type BulkImportProgress = { done: number; total: number };

export type BulkImportState = {
  phase: BulkImportPhase;
  fileName: string | undefined;
  /** Why the file as a whole cannot be imported. */
  fileProblem: string | undefined;
  rows: readonly ImportRowState[];
  progress: BulkImportProgress;
  /** Whether the last check or run was cancelled. */
  wasCancelled: boolean;
  /** Bumped on every change of `rows`, whose array is updated in place. */
  version: number;
};

/**
 * One import: read a file, plan and check every row, then run it with bounded concurrency,
 * cancel (nothing new starts; what runs finishes), resume what never ran, and retry what failed.
 * The rows live in a ref, updated in place and announced through `version`, so 5000 rows do not
 * copy an array on every completed call.
 */
export function useBulkImport(context: ImportContext) {
  const queryClient = useQueryClient();
  const rowsRef = useRef<ImportRowState[]>([]);
  // By row number: updated in place like the rows, announced through `version`.
  const externalRef = useRef(new Map<number, ExternalRowState>());
  const [signatureFileProblem, setSignatureFileProblem] = useState<string | undefined>();
  const [isGenerating, setIsGenerating] = useState(false);
  const cancelRef = useRef(false);
  // Bumped by each file chosen: a file chosen while the previous one is still being validated
  // replaces it, rather than both going on.
  const loadRef = useRef(0);
  // Verdicts from before a run may be stale after it (or after a cancel): later runs check again.
  const hasRunRef = useRef(false);
  const [state, setState] = useState<Omit<BulkImportState, 'rows'>>({
    phase: 'empty',
    fileName: undefined,
    fileProblem: undefined,
    progress: { done: 0, total: 0 },
    wasCancelled: false,
    version: 0,
  });

  // Re-rendering the table after every completed call would cost more than the calls: progress
  // is shown at most every UPDATE_INTERVAL_MS, and each phase's end shows the rest at once.
  // Updates that render many rows (the plan's first page, progress, a phase's end) are
  // transitions, so React renders them in slices and the page never freezes for a long task.
  const pendingProgressRef = useRef<BulkImportProgress | undefined>(undefined);
  const timerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      clearTimeout(timerRef.current);
      // Leaving the page cancels: the rows in flight finish, no new ones start unseen.
      cancelRef.current = true;
    },
    [],
  );
  const touch = useCallback((progress?: BulkImportProgress) => {
    if (progress) pendingProgressRef.current = progress;
    if (timerRef.current !== undefined) return;
    timerRef.current = setTimeout(() => {
      timerRef.current = undefined;
      const latest = pendingProgressRef.current;
      startTransition(() => {
        setState((previous) => ({
          ...previous,
          version: previous.version + 1,
          ...(latest ? { progress: latest } : {}),
        }));
      });
    }, UPDATE_INTERVAL_MS);
  }, []);

  /** A check or run has ended (or was cancelled): the table shows every row's state at once. */
  const endPhase = useCallback((wasCancelled: boolean, progress: BulkImportProgress) => {
    startTransition(() => {
      setState((previous) => ({
        ...previous,
        phase: 'ready',
        wasCancelled,
        progress,
        version: previous.version + 1,
      }));
    });
  }, []);

  const load = useCallback(
    async (file: File) => {
      loadRef.current += 1;
      const thisLoad = loadRef.current;
      cancelRef.current = false;
      hasRunRef.current = false;
      rowsRef.current = [];
      externalRef.current = new Map();
      setSignatureFileProblem(undefined);
      const reset = { fileName: file.name, progress: { done: 0, total: 0 }, wasCancelled: false };
      if (file.size > BULK_IMPORT_LIMITS.fileBytes) {
        setState((previous) => ({
          ...previous,
          ...reset,
          phase: 'empty',
          fileProblem: `The file is larger than 1 MiB (${String(file.size)} bytes); split it into several files.`,
          version: previous.version + 1,
        }));
        return;
      }
      let text: string;
      try {
        text = await file.text();
      } catch (error) {
        setState((previous) => ({
          ...previous,
          ...reset,
          phase: 'empty',
          fileProblem: `The file could not be read: ${describeError(error).message}`,
          version: previous.version + 1,
        }));
        return;
      }
      const parsed = parseImportFile(file.name, text);
      if (!parsed.ok) {
        setState((previous) => ({
          ...previous,
          ...reset,
          phase: 'empty',
          fileProblem: parsed.problem,
          version: previous.version + 1,
        }));
        return;
      }
      // A person's public key makes their row's party external, `<hint>::<fingerprint>`.
      const rows = await readExternalKeys(parsed.rows);
      const validate = createRowValidator(context);
      const validated: ValidatedRow[] = [];
      for (let start = 0; start < rows.length; start += VALIDATE_SLICE_ROWS) {
        await nextTask();
        if (loadRef.current !== thisLoad) return;
        for (const row of rows.slice(start, start + VALIDATE_SLICE_ROWS)) {
          validated.push(validate(row));
        }
      }
      rowsRef.current = validated.map((row) => ({
        row,
        verdict: row.ok ? undefined : invalidVerdict(row),
        result: undefined,
      }));
      const toCheck = rowsRef.current.filter((entry) => entry.row.ok);
      startTransition(() => {
        setState((previous) => ({
          ...previous,
          ...reset,
          phase: 'checking',
          fileProblem: undefined,
          progress: { done: 0, total: toCheck.length },
          version: previous.version + 1,
        }));
      });
      let done = 0;
      const knownUsers = toCheck.length > 0 ? await listUsersOfCallerIdp() : undefined;
      const summary = await runPool(
        toCheck,
        async (entry) => {
          entry.verdict = await checkRow(entry, knownUsers);
          done += 1;
          touch({ done, total: toCheck.length });
        },
        { concurrency: CHECK_CONCURRENCY, isCancelled: () => cancelRef.current },
      );
      endPhase(summary.stoppedEarly, { done, total: toCheck.length });
    },
    [context, touch, endPhase],
  );

  /**
   * Runs the rows that have no result yet (`pending`), or the valid rows that failed (`failed`).
   * Rows already checked before any run use that verdict; otherwise they are checked again first,
   * so a resumed or retried row never repeats what exists.
   */
  const run = useCallback(
    async (which: 'pending' | 'failed') => {
      cancelRef.current = false;
      const recheck = hasRunRef.current || which === 'failed';
      hasRunRef.current = true;
      const selected = rowsRef.current.filter((entry) =>
        which === 'pending'
          ? entry.result === undefined || entry.result.outcome === 'waiting'
          : entry.row.ok && entry.result?.outcome === 'failed',
      );
      for (const entry of selected) entry.result = undefined;
      setState((previous) => ({
        ...previous,
        phase: 'running',
        wasCancelled: false,
        progress: { done: 0, total: selected.length },
        version: previous.version + 1,
      }));
      let done = 0;
      const summary = await runPool(
        selected,
        async (entry) => {
          if (entry.row.ok && (recheck || entry.verdict === undefined)) {
            entry.verdict = await checkRow(entry);
          }
          entry.result = await runRow(queryClient, entry, externalRef.current.get(entry.row.row));
          done += 1;
          touch({ done, total: selected.length });
        },
        { concurrency: RUN_CONCURRENCY, isCancelled: () => cancelRef.current },
      ).finally(() => refreshAfterOnboarding(queryClient));
      endPhase(summary.stoppedEarly, { done, total: selected.length });
    },
    [queryClient, touch, endPhase],
  );

  const cancel = useCallback(() => {
    cancelRef.current = true;
  }, []);

  const bump = useCallback(() => {
    setState((previous) => ({ ...previous, version: previous.version + 1 }));
  }, []);

  /**
   * Generates the topology of every external row still waiting for it (or whose generation
   * failed) on `synchronizerId`, and decodes it; the multi-hashes are then listed to sign.
   */
  const generateTopologies = useCallback(
    async (synchronizerId: string) => {
      const waiting = rowsRef.current.filter((entry) => {
        const current = externalRef.current.get(entry.row.row);
        return (
          externalPlanOf(entry) !== undefined &&
          (current === undefined ||
            current.status === 'failed' ||
            (current.status === 'ready' &&
              current.synchronizerId !== synchronizerId &&
              current.signature === undefined))
        );
      });
      setIsGenerating(true);
      for (const entry of waiting) externalRef.current.set(entry.row.row, { status: 'generating' });
      bump();
      await runPool(
        waiting,
        async (entry) => {
          const plan = externalPlanOf(entry);
          const key = entry.row.externalKey;
          const hint = entry.row.party?.kind === 'external' ? entry.row.party.hint : '';
          if (plan === undefined || key === undefined) return;
          try {
            const topology = await generateAndReadTopology({
              synchronizer: synchronizerId,
              partyHint: hint,
              publicKey: toWirePublicKey(key),
            });
            externalRef.current.set(
              entry.row.row,
              topology.generated.partyId === plan.party
                ? { status: 'ready', topology, publicKey: key, synchronizerId }
                : {
                    status: 'failed',
                    reason: `The participant answered the party ${topology.generated.partyId}, not the planned ${plan.party}.`,
                  },
            );
          } catch (error) {
            externalRef.current.set(entry.row.row, {
              status: 'failed',
              reason: describeError(error).message,
            });
          }
          touch();
        },
        { concurrency: RUN_CONCURRENCY, isCancelled: () => false },
      );
      setIsGenerating(false);
      bump();
    },
    [bump, touch],
  );

  /** A row's signature, pasted or from a file: kept only when it verifies. */
  const setSignature = useCallback(
    async (row: number, text: string, { announce = true } = {}) => {
      const current = externalRef.current.get(row);
      if (current?.status !== 'ready') return false;
      if (text.trim() === '') {
        externalRef.current.set(row, {
          ...current,
          signature: undefined,
          signatureProblem: undefined,
        });
        if (announce) bump();
        return false;
      }
      const outcome = await checkPastedSignature(text, {
        publicKey: current.publicKey,
        hash: current.topology.view.multiHash.bytes,
      });
      externalRef.current.set(
        row,
        outcome.ok
          ? { ...current, signature: outcome.signature, signatureProblem: undefined }
          : { ...current, signature: undefined, signatureProblem: outcome.message },
      );
      if (announce) bump();
      return outcome.ok;
    },
    [bump],
  );

  /** Signatures given back as a CSV file (row, signature); each is checked like a pasted one. */
  const loadSignatures = useCallback(
    async (file: File) => {
      setSignatureFileProblem(undefined);
      if (file.size > BULK_IMPORT_LIMITS.fileBytes) {
        setSignatureFileProblem('The file is larger than 1 MiB.');
        return;
      }
      const parsed = parseSignatureFile(await file.text());
      if (!parsed.ok) {
        setSignatureFileProblem(parsed.problem);
        return;
      }
      const unknown: number[] = [];
      for (const { row, signature } of parsed.signatures) {
        if (externalRef.current.get(row)?.status !== 'ready') unknown.push(row);
        else await setSignature(row, signature, { announce: false });
      }
      if (unknown.length > 0) {
        setSignatureFileProblem(
          `No multi-hash to sign for row${unknown.length === 1 ? '' : 's'} ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? '…' : ''}: those signatures were not used.`,
        );
      }
      bump();
    },
    [bump, setSignature],
  );

  return {
    ...state,
    rows: rowsRef.current,
    external: externalRef.current,
    isGenerating,
    signatureFileProblem,
    load,
    run,
    cancel,
    generateTopologies,
    setSignature,
    loadSignatures,
  };
}

/** The row's plan when it allocates an external party still to be signed for. */
export function externalPlanOf({ verdict }: ImportRowState): OnboardingPlan | undefined {
  if (verdict?.kind !== 'create' && verdict?.kind !== 'update') return undefined;
  return unsignedExternalStep(verdict.plan) === undefined ? undefined : verdict.plan;
}

async function runRow(
  queryClient: QueryClient,
  entry: ImportRowState,
  external: ExternalRowState | undefined,
): Promise<RowResult> {
  const { row, verdict } = entry;
  const base = { row: row.row, userId: row.userId, party: partyOf(entry) };
  if (!row.ok) return { ...base, outcome: 'failed', reason: invalidVerdict(row).reason };
  if (!verdict) return { ...base, outcome: 'failed', reason: 'Not checked' };
  switch (verdict.kind) {
    case 'invalid':
    case 'conflict':
      return { ...base, outcome: 'failed', reason: verdict.reason };
    case 'skip':
      return { ...base, outcome: 'skipped', reason: verdict.reason };
    case 'create':
    case 'update': {
      let { plan } = verdict;
      if (unsignedExternalStep(plan) !== undefined) {
        if (external?.status !== 'ready' || external.signature === undefined) {
          return { ...base, outcome: 'waiting', reason: waitingReason(external) };
        }
        plan = withExternalSignature(plan, {
          synchronizerId: external.synchronizerId,
          topologyTransactions: external.topology.generated.topologyTransactions,
          multiHashSignatures: [external.signature],
        });
      }
      const outcome = await runRowPlan(queryClient, plan, row.isDeactivated);
      if (!outcome.ok) return { ...base, outcome: 'failed', reason: outcome.reason };
      return {
        ...base,
        outcome: verdict.kind === 'create' ? 'created' : 'updated',
        reason: [...outcome.done.map((step) => `${step.summary}.`), ...verdict.notes].join(' '),
      };
    }
  }
}

function waitingReason(external: ExternalRowState | undefined): string {
  switch (external?.status) {
    case undefined:
    case 'generating':
      return 'Waiting: its external party’s topology is not generated yet, so the person has nothing to sign. Generate the topologies, get the signatures back, then Resume.';
    case 'failed':
      return `Waiting: generating its external party’s topology failed (${external.reason}). Generate again, then Resume.`;
    case 'ready':
      return `Waiting for the person’s signature of multi-hash ${external.topology.view.multiHash.hex}${external.signatureProblem === undefined ? '' : ` (the one given was refused: ${external.signatureProblem})`}. Nothing was created for this row; Resume runs it once signed.`;
  }
}

async function checkRow(entry: ImportRowState, knownUsers?: KnownUsers): Promise<RowVerdict> {
  if (!entry.row.ok) return invalidVerdict(entry.row);
  const lookup = await lookUpRow(entry.row.plan, knownUsers);
  return verdictOf(entry.row.plan, lookup, entry.row);
}

/** The row's party as the plan has it, or as written when the row is invalid. */
export function partyOf({ row }: ImportRowState): string {
  if (row.ok) return row.plan.party;
  if (row.party?.kind === 'new' || row.party?.kind === 'external') return row.party.hint;
  return row.party?.party ?? '';
}
