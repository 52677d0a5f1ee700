import { z } from 'zod';
import {
  COMMAND_KINDS,
  DEDUPLICATION_KINDS,
  MIN_LEDGER_TIME_KINDS,
  type ComposerValues,
} from './composer-form-schema';

/**
 * The composer's unsent draft, kept for the browser tab (sessionStorage) so that leaving the page,
 * for example after a failed submit, and coming back does not lose what was typed.
 */
const DRAFT_KEY_PREFIX = 'ledger-console.composer.draft';

/** The shape only, no validation rules: a draft is half-written by nature. */
const draftSchema = z.object({
  commands: z.array(
    z.object({
      kind: z.enum(COMMAND_KINDS),
      templateId: z.string(),
      contractId: z.string(),
      contractKey: z.string(),
      choice: z.string(),
      createArguments: z.string(),
      choiceArgument: z.string(),
    }),
  ),
  actAs: z.array(z.string()),
  readAs: z.array(z.string()),
  userId: z.string(),
  commandId: z.string(),
  workflowId: z.string(),
  deduplication: z.object({
    kind: z.enum(DEDUPLICATION_KINDS),
    seconds: z.string(),
    offset: z.string(),
  }),
  minLedgerTime: z.object({
    kind: z.enum(MIN_LEDGER_TIME_KINDS),
    absolute: z.string(),
    relativeSeconds: z.string(),
  }),
  disclosedContracts: z.array(
    z.object({
      contractId: z.string(),
      templateId: z.string(),
      createdEventBlob: z.string(),
      synchronizerId: z.string(),
    }),
  ),
});

/** One draft per signed-in user: another user's parties would not be theirs to use. */
const keyFor = (userId: string | undefined) => `${DRAFT_KEY_PREFIX}:${userId ?? ''}`;

export function readDraft(userId: string | undefined): ComposerValues | undefined {
  try {
    const text = globalThis.sessionStorage.getItem(keyFor(userId));
    if (text === null) return undefined;
    const parsed = draftSchema.safeParse(JSON.parse(text));
    const draft: ComposerValues | undefined = parsed.success ? parsed.data : undefined;
    return draft;
  } catch {
    return undefined;
  }
}

export function writeDraft(userId: string | undefined, values: ComposerValues): void {
  try {
    globalThis.sessionStorage.setItem(keyFor(userId), JSON.stringify(values));
  } catch {
    // Storage refused (private mode, full): the draft lives as long as the page, as before.
  }
}

export function clearDraft(userId: string | undefined): void {
  try {
    globalThis.sessionStorage.removeItem(keyFor(userId));
  } catch {
    // Nothing stored to clear.
  }
}

/** JSON with object keys sorted, so two values compare by content whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : inner,
  );
}

/**
 * Whether `values` holds work that `baseline` (what was last loaded or sent) does not: the
 * command id aside, which the composer renews on its own.
 */
export function hasUnsentChanges(values: ComposerValues, baseline: ComposerValues): boolean {
  return canonical({ ...values, commandId: '' }) !== canonical({ ...baseline, commandId: '' });
}
