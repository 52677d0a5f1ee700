import { useCallback, useSyncExternalStore } from 'react';
import type { NodeId } from '@/lib/transaction-tree/model';

/**
 * Selection and search highlights, read per node. Kept out of the graph's node data so that
 * selecting a node or stepping through matches re-renders the two or three nodes that changed,
 * not every node of a 10,000-node graph (React Flow re-adopts all nodes when their data changes).
 */
export type NodeFlags = {
  readonly selected: NodeId | undefined;
  readonly isMatch: ReadonlySet<NodeId>;
  readonly currentMatch: NodeId | undefined;
};

export const NODE_SELECTED = 1;
export const NODE_MATCH = 2;
export const NODE_CURRENT_MATCH = 4;

export type NodeFlagsStore = {
  set: (flags: NodeFlags) => void;
  subscribe: (listener: () => void) => () => void;
  flagsOf: (id: NodeId) => number;
};

const NO_MATCHES: ReadonlySet<NodeId> = new Set();

export function createNodeFlagsStore(): NodeFlagsStore {
  let flags: NodeFlags = { selected: undefined, isMatch: NO_MATCHES, currentMatch: undefined };
  const listeners = new Set<() => void>();
  return {
    set(next) {
      if (
        next.selected === flags.selected &&
        next.isMatch === flags.isMatch &&
        next.currentMatch === flags.currentMatch
      ) {
        return;
      }
      flags = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    flagsOf(id) {
      return (
        (flags.selected === id ? NODE_SELECTED : 0) |
        (flags.isMatch.has(id) ? NODE_MATCH : 0) |
        (flags.currentMatch === id ? NODE_CURRENT_MATCH : 0)
      );
    },
  };
}

/** The flags of one node; re-renders only when they change. */
export function useNodeFlags(store: NodeFlagsStore, id: NodeId): number {
  const getSnapshot = useCallback(() => store.flagsOf(id), [store, id]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}
