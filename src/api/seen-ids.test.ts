import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { contractQueries, type ContractLookup } from './contracts';
import { cachedIds } from './seen-ids';
import { updateQueries } from './updates';
import { updateViewQueries } from './update-views';

const UPDATE_ID = `1220${'ab'.repeat(32)}`;
const TREE_UPDATE_ID = `1220${'cd'.repeat(32)}`;
const CONTRACT_ID = `00${'ef'.repeat(33)}`;
const LOOKED_UP = `00${'12'.repeat(33)}`;
const TEMPLATE_ID = `${'c'.repeat(64)}:Demo.Iou:Iou`;
const scope = { kind: 'any-party' } as const;

describe('cachedIds', () => {
  it('reads the ids of the cached history pages, trees and contract lookups, and nothing else', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(updateQueries.recent(scope).queryKey, {
      pages: [{ updates: [{ updateId: UPDATE_ID, offset: 7 }], olderThan: null, prunedUpTo: 0 }],
      pageParams: [undefined],
    } as never);
    queryClient.setQueryData(updateViewQueries.tree({ updateId: TREE_UPDATE_ID }, scope).queryKey, {
      updateId: TREE_UPDATE_ID,
      offset: 9,
      nodes: new Map([[0, { contractId: CONTRACT_ID, templateId: TEMPLATE_ID }]]),
    } as never);
    queryClient.setQueryData(updateQueries.ledgerEnd().queryKey, 12);
    const active: ContractLookup = { status: 'active', templateId: TEMPLATE_ID };
    queryClient.setQueryData(contractQueries.lookup(LOOKED_UP, scope).queryKey, active);
    queryClient.setQueryData(contractQueries.lookup(`00${'34'.repeat(33)}`, scope).queryKey, {
      status: 'missing',
    });

    expect(cachedIds(queryClient)).toEqual({
      updates: [
        { updateId: UPDATE_ID, offset: 7 },
        { updateId: TREE_UPDATE_ID, offset: 9 },
      ],
      contracts: [
        { contractId: CONTRACT_ID, templateId: TEMPLATE_ID, offset: 9 },
        // A contract the lookup did not find is no sighting.
        { contractId: LOOKED_UP, templateId: TEMPLATE_ID, offset: undefined },
      ],
    });
  });
});
