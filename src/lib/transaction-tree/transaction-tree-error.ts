import { DescribedError } from '@/lib/errors/api-error';

export type TransactionTreeErrorCode =
  /** A node id that is not a non-negative safe integer. */
  | 'INVALID_NODE_ID'
  /** Two events claim the same node id. */
  | 'DUPLICATE_NODE_ID'
  /** An `eventsById` key that is not the node id of the event it holds. */
  | 'NODE_ID_MISMATCH'
  /** An exercise whose `lastDescendantNodeId` is missing or below its own node id. */
  | 'INVALID_DESCENDANT_RANGE'
  /** An exercise that starts inside another's range but ends after it: ranges must nest. */
  | 'OVERLAPPING_RANGES'
  /** An event that is none of the known kinds. */
  | 'UNKNOWN_EVENT';

/**
 * A transaction the tree builders cannot turn into a tree. Thrown at build time, so that a
 * malformed response fails once with a clear message instead of crashing the graph later.
 */
export class TransactionTreeError extends DescribedError {
  override readonly name = 'TransactionTreeError';
  readonly title = 'Malformed transaction';

  constructor(
    override readonly code: TransactionTreeErrorCode,
    message: string,
    /** The node the problem was found at, when there is one. */
    readonly nodeId?: number,
  ) {
    super(message);
  }
}
