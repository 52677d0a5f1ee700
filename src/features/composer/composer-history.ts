import { useCallback } from 'react';
import { identityDataStorage, identityScopedKey } from '@/api/access-token';
import type { JsCommands } from '@/api/commands';
import { useStoredList } from '@/hooks/use-stored-list';
import {
  createBoundedJsonStore,
  parseJsonList,
  withNewest,
} from '@/lib/storage/bounded-json-store';
import { isRecord } from '@/lib/values/is-record';
import type { TransactionTree } from '@/lib/transaction-tree/model';

/** One submission the composer sent and the participant accepted. */
export type HistoryEntry = {
  /** The command id it was sent with, which identifies it here too. */
  id: string;
  submittedAt: number;
  request: JsCommands;
  updateId: string;
  offset: number;
  /** Contracts it created, offered again as contract ids and templates to pick. */
  created: { contractId: string; templateId: string }[];
};

export const MAX_HISTORY_ENTRIES = 50;
/**
 * Where every identity's history used to be, shared by all of them and every participant: it
 * cannot be told apart, so it is dropped rather than shown to whoever opens the composer next.
 */
const SHARED_HISTORY_KEY = 'ledger-console.composer.history';

/** A history entry for a submission and its tree. */
export function historyEntryFor(
  request: JsCommands,
  tree: TransactionTree,
  submittedAt: number,
): HistoryEntry {
  const created: HistoryEntry['created'] = [];
  for (const id of tree.order) {
    const node = tree.nodes.get(id);
    if (node?.kind === 'created' && node.consumedBy === null) {
      created.push({ contractId: node.contractId, templateId: node.templateId });
    }
  }
  return {
    id: request.commandId,
    submittedAt,
    request,
    updateId: tree.updateId,
    offset: tree.offset,
    created,
  };
}

/** Newest first, at most {@link MAX_HISTORY_ENTRIES}. */
export function addHistoryEntry(
  entries: readonly HistoryEntry[],
  entry: HistoryEntry,
): HistoryEntry[] {
  return withNewest(entries, entry, MAX_HISTORY_ENTRIES);
}

/** Templates of recent submissions and of contracts they created, newest first, no repeats. */
export function recentTemplateIds(entries: readonly HistoryEntry[]): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    for (const command of entry.request.commands) {
      const { templateId } = Object.values(command)[0] as { templateId: string };
      ids.push(templateId);
    }
    for (const contract of entry.created) ids.push(contract.templateId);
  }
  return [...new Set(ids)];
}

/** Contracts recent submissions created, newest first. */
export function recentContracts(entries: readonly HistoryEntry[]): HistoryEntry['created'] {
  const seen = new Set<string>();
  return entries
    .flatMap((entry) => entry.created)
    .filter(({ contractId }) => !seen.has(contractId) && Boolean(seen.add(contractId)));
}

/** What a history row says the submission did: "Create Iou, Exercise Iou_Split". */
export function describeRequest(request: JsCommands): string {
  return request.commands
    .map((command) => {
      if ('CreateCommand' in command) return `Create ${entity(command.CreateCommand.templateId)}`;
      if ('ExerciseCommand' in command) return `Exercise ${command.ExerciseCommand.choice}`;
      if ('CreateAndExerciseCommand' in command) {
        const { templateId, choice } = command.CreateAndExerciseCommand;
        return `Create ${entity(templateId)} and exercise ${choice}`;
      }
      return `Exercise ${command.ExerciseByKeyCommand.choice} by key`;
    })
    .join(', ');
}

const entity = (templateId: string) => templateId.split(':').at(-1) ?? templateId;

function isHistoryEntry(value: unknown): value is HistoryEntry {
  if (!isRecord(value)) return false;
  const entry = value as Partial<HistoryEntry>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.updateId === 'string' &&
    typeof entry.request === 'object' &&
    Array.isArray(entry.request.commands) &&
    Array.isArray(entry.created)
  );
}

/** Whatever the storage holds, as entries; anything unreadable is dropped, never thrown. */
export function parseHistory(text: string | null): HistoryEntry[] {
  return parseJsonList(text, isHistoryEntry, MAX_HISTORY_ENTRIES);
}

// ── storage, shared by every composer on the page and other tabs ────────────────

const store = createBoundedJsonStore({ isItem: isHistoryEntry, maxItems: MAX_HISTORY_ENTRIES });

let isSharedHistoryDropped = false;

function dropSharedHistory(): void {
  if (isSharedHistoryDropped) return;
  try {
    globalThis.localStorage.removeItem(SHARED_HISTORY_KEY);
    isSharedHistoryDropped = true;
  } catch {
    // No storage to clean: nothing was shared there either.
  }
}

/**
 * The local history of submissions to `participantId` by the signed-in identity (bounded, newest
 * first). Kept as long as that identity's sign-in (see identityDataStorage); signing out forgets it.
 * Storing never fails the submission: a full storage keeps the newest entries it takes.
 */
export function useComposerHistory(participantId: string) {
  dropSharedHistory();
  const storage = identityDataStorage();
  const key = identityScopedKey('composer.history', participantId);
  const entries = useStoredList(store, { storage, key });
  const add = useCallback(
    (entry: HistoryEntry) => {
      const place = { storage, key };
      store.write(place, addHistoryEntry(store.read(place), entry));
    },
    [storage, key],
  );
  const remove = useCallback(
    (id: string) => {
      const place = { storage, key };
      store.write(
        place,
        store.read(place).filter((entry) => entry.id !== id),
      );
    },
    [storage, key],
  );
  const clear = useCallback(() => {
    store.write({ storage, key }, []);
  }, [storage, key]);
  return { entries, add, remove, clear };
}
