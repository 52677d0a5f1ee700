import { buildTree } from '@/lib/transaction-tree/build-tree';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import {
  eventsOfTransaction,
  eventsOfTransactionTree,
  type WireTransaction,
  type WireTransactionTree,
  type WireUpdate,
} from './transaction-tree-adapter';

/*
 * A transaction's wire shapes as the console's tree (src/lib/transaction-tree). Apart from the
 * events' adapter, which the update lists read too, so that a page listing updates loads no tree
 * building.
 */

/** The deprecated tree shape (`submit-and-wait-for-transaction-tree`, `transaction-tree-by-id`). */
export function fromTransactionTree(wire: WireTransactionTree): TransactionTree {
  return buildTree(eventsOfTransactionTree(wire));
}

/**
 * A flat `JsTransaction` (`submit-and-wait-for-transaction`, `update-by-id`, …). Meant for the
 * LEDGER_EFFECTS shape; an ACS_DELTA transaction is accepted too and gives created and archived
 * nodes, all roots, since that shape has no exercises to nest under.
 */
export function fromLedgerEffectsTransaction(wire: WireTransaction): TransactionTree {
  return buildTree(eventsOfTransaction(wire));
}

/**
 * The tree of an update-by-id/offset response's `update`, or of a `/v2/updates(/trees)` item;
 * null for reassignments, topology transactions and offset checkpoints.
 */
export function fromUpdate(update: WireUpdate): TransactionTree | null {
  if (update.Transaction) return fromLedgerEffectsTransaction(update.Transaction.value);
  if (update.TransactionTree) return fromTransactionTree(update.TransactionTree.value);
  return null;
}
