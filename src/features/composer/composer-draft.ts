import { isRecord } from '@/lib/values/is-record';
import { composerShape, type ComposerValues } from './composer-form-schema';

/**
 * The composer's unsent draft, kept for the browser tab (sessionStorage) so that leaving the page,
 * for example after a failed submit, and coming back does not lose what was typed.
 */
const DRAFT_KEY_PREFIX = 'ledger-console.composer.draft';

/** One draft per signed-in user: another user's parties would not be theirs to use. */
const keyFor = (userId: string | undefined) => `${DRAFT_KEY_PREFIX}:${userId ?? ''}`;

export function readDraft(userId: string | undefined): ComposerValues | undefined {
  try {
    const text = globalThis.sessionStorage.getItem(keyFor(userId));
    if (text === null) return undefined;
    const parsed = composerShape.safeParse(JSON.parse(text));
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
    isRecord(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
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
