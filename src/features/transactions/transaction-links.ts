/**
 * Where the transaction view links to. Features cannot import `app/paths`, so the page passes
 * these in (`node` is `paths.transactions.to`).
 */
export type TransactionLinks = {
  /** The deep link that opens `updateId` in the viewer with `nodeId` selected. */
  node: (updateId: string, nodeId: number) => string;
};

/**
 * Where a contract's events link to. An event names its transaction's offset, not its update id:
 * the viewer resolves the offset itself, so no lookup is needed to draw the link.
 */
export type ContractEventLinks = {
  /** The deep link that opens the update at `offset` in the viewer with `nodeId` selected. */
  nodeAtOffset: (offset: number, nodeId: number) => string;
};
