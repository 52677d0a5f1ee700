import type { TransactionEvents } from './model';

/** What a command did at the top of its transaction: a create, or an exercise of a choice. */
export type RootAction = {
  /** As the participant prints it (package-id form). */
  readonly templateId: string;
  /** The exercised choice; `Create` for a create. */
  readonly choice: string;
};

/** The choice name a create is listed under: no Daml choice can be called that with a capital C and be a create. */
export const CREATE_ACTION = 'Create';

/**
 * The distinct actions at the top of a transaction (its root events, in order): what the commands
 * that made it were. Events inside a visible exercise's range are its consequences, not commands.
 * An ACS_DELTA transaction has no exercises, so its created events count as roots and its
 * archived events are left out (an archive is never a command of its own there).
 */
export function rootActionsOf(transaction: TransactionEvents): RootAction[] {
  const seen = new Set<string>();
  const actions: RootAction[] = [];
  let insideUpTo = -1;
  for (const event of transaction.events) {
    const isRoot = event.nodeId > insideUpTo;
    if (event.kind === 'exercised') insideUpTo = Math.max(insideUpTo, event.lastDescendantNodeId);
    if (!isRoot || event.kind === 'archived') continue;
    const choice = event.kind === 'created' ? CREATE_ACTION : event.choice;
    const key = `${event.templateId}\u0000${choice}`;
    if (seen.has(key)) continue;
    seen.add(key);
    actions.push({ templateId: event.templateId, choice });
  }
  return actions;
}
