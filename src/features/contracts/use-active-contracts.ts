import { useEffect, useReducer } from 'react';
import { flushSync } from 'react-dom';
import {
  streamActiveContracts,
  type ActiveContract,
  type ActiveContractsQuery,
} from '@/api/active-contracts';
import type { LedgerStreamStatus } from '@/api/ledger-stream';

export type ActiveContractsState = {
  contracts: readonly ActiveContract[];
  status: LedgerStreamStatus;
  /** The cap was reached: the stream was closed before its end. */
  isCapped: boolean;
};

type Action =
  | { kind: 'reset' }
  | { kind: 'contracts'; contracts: ActiveContract[] }
  | { kind: 'status'; status: LedgerStreamStatus }
  | { kind: 'capped' };

const INITIAL: ActiveContractsState = {
  contracts: [],
  status: { kind: 'connecting' },
  isCapped: false,
};

function reduce(state: ActiveContractsState, action: Action): ActiveContractsState {
  switch (action.kind) {
    case 'reset':
      return INITIAL;
    case 'contracts':
      // One copy per batch (at most ten a second), not per contract.
      return { ...state, contracts: state.contracts.concat(action.contracts) };
    case 'status':
      // Closing after the cap reports `closed`; the cap says more.
      return state.isCapped ? state : { ...state, status: action.status };
    case 'capped':
      return { ...state, isCapped: true, status: { kind: 'ended' } };
  }
}

/**
 * The active contracts of `query`, as they stream in; a new query (by value) starts over. Nothing
 * is streamed while `query` is undefined (the ledger end is not known yet).
 */
export function useActiveContracts(
  query: ActiveContractsQuery | undefined,
  /** Changing it streams the same query again (Refresh). */
  generation = 0,
): ActiveContractsState {
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const key = query === undefined ? undefined : JSON.stringify(query);
  useEffect(() => {
    if (key === undefined) return;
    dispatch({ kind: 'reset' });
    let isFirstBatch = true;
    const stream = streamActiveContracts(JSON.parse(key) as ActiveContractsQuery, {
      onContracts: (contracts) => {
        // The first rows render now, in the message's task: a render React scheduled would wait
        // behind the stream's next messages, which keep coming as fast as the socket delivers
        // them. Later batches render as React schedules them.
        if (isFirstBatch) {
          isFirstBatch = false;
          flushSync(() => {
            dispatch({ kind: 'contracts', contracts });
          });
          return;
        }
        dispatch({ kind: 'contracts', contracts });
      },
      onStatus: (status) => {
        dispatch({ kind: 'status', status });
      },
      onCapped: () => {
        dispatch({ kind: 'capped' });
      },
    });
    return () => {
      stream.close();
    };
  }, [key, generation]);
  return state;
}
