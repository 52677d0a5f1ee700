/**
 * Where the transaction view links to. Features cannot import `app/paths`, so the page passes
 * these in (`node` is `paths.transactions.to`).
 */
export type TransactionLinks = {
  /** The deep link that opens `updateId` in the viewer with `nodeId` selected. */
  node: (updateId: string, nodeId: number) => string;
};
