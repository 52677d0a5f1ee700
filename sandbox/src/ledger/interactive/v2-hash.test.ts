import { randomBytes } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import {
  cid,
  everyNode as everyNodeOf,
} from '@ledger-console/participant/testing/prepared-transactions';
import { describe, expect, it } from 'vitest';
import { HashingError, preparedTransactionHashV2 } from './v2-hash';

// The shared fixture as a participant reads it: hex contract ids, every record label given.
const everyNode = () => everyNodeOf('participant');

describe('hashing scheme V2', () => {
  it('hashes every node and value kind as the reference hasher does', async () => {
    const prepared = everyNode();
    const ours = preparedTransactionHashV2(prepared).toString('base64');
    expect(ours).toBe(await hashPreparedTransaction(prepared));
    // And through the wire form, which is what execute hashes.
    const wire = Buffer.from(PreparedTransaction.toBinary(prepared)).toString('base64');
    expect(
      preparedTransactionHashV2(PreparedTransaction.fromBinary(Buffer.from(wire, 'base64'))),
    ).toEqual(Buffer.from(ours, 'base64'));
  });

  it('changes with any signed field, and not with the unsigned ones', () => {
    const base = preparedTransactionHashV2(everyNode());
    const copy = () => PreparedTransaction.fromBinary(PreparedTransaction.toBinary(everyNode()));
    const changes: ((tx: PreparedTransaction) => void)[] = [
      (tx) => {
        if (tx.metadata) tx.metadata.preparationTime += 1n;
      },
      (tx) => {
        if (tx.metadata) tx.metadata.minLedgerEffectiveTime = undefined;
      },
      (tx) => {
        const seed = tx.transaction?.nodeSeeds[2];
        if (seed) seed.seed = randomBytes(32);
      },
      (tx) => {
        const input = tx.metadata?.inputContracts[0];
        if (input) input.createdAt += 1n;
      },
      (tx) => {
        if (tx.transaction) tx.transaction.version = '2.2';
      },
    ];
    for (const change of changes) {
      const changed = copy();
      change(changed);
      expect(preparedTransactionHashV2(changed).equals(base)).toBe(false);
    }
    // Neither the max record time (signed only from V3) nor the event blobs are hashed.
    const unsigned = copy();
    if (unsigned.metadata) {
      unsigned.metadata.maxRecordTime = undefined;
      for (const input of unsigned.metadata.inputContracts) input.eventBlob = new Uint8Array();
    }
    expect(preparedTransactionHashV2(unsigned)).toEqual(base);
  });

  it("hashes parties and input contracts as Canton's sets: sorted, whatever the order received", () => {
    const sorted = everyNode();
    const shuffled = PreparedTransaction.fromBinary(PreparedTransaction.toBinary(sorted));
    if (shuffled.metadata) {
      shuffled.metadata.submitterInfo?.actAs.reverse();
      shuffled.metadata.inputContracts.reverse();
    }
    const root = shuffled.transaction?.nodes[0]?.versionedNode;
    if (root?.oneofKind === 'v1' && root.v1.nodeType.oneofKind === 'exercise') {
      root.v1.nodeType.exercise.stakeholders.reverse();
    }
    expect(preparedTransactionHashV2(shuffled)).toEqual(preparedTransactionHashV2(sorted));
  });

  it('refuses what it cannot hash with the participant’s reasons', () => {
    const missingSeed = everyNode();
    if (missingSeed.transaction) missingSeed.transaction.nodeSeeds = [];
    expect(() => preparedTransactionHashV2(missingSeed)).toThrow(
      new HashingError('Missing node seed for node 0'),
    );
    const dangling = everyNode();
    if (dangling.transaction) dangling.transaction.roots = ['9'];
    expect(() => preparedTransactionHashV2(dangling)).toThrow(
      'The transaction does not contain a node with nodeId 9',
    );
    const cyclic = everyNode();
    const rollback = cyclic.transaction?.nodes[3]?.versionedNode;
    if (rollback?.oneofKind === 'v1' && rollback.v1.nodeType.oneofKind === 'rollback') {
      rollback.v1.nodeType.rollback.children = ['0'];
    }
    expect(() => preparedTransactionHashV2(cyclic)).toThrow('appears more than once');
  });

  it('writes its steps as hashing details when asked', () => {
    const trace: string[] = [];
    const hash = preparedTransactionHashV2(everyNode(), trace);
    expect(trace.length).toBeGreaterThan(100);
    expect(trace).toContain(`    # Fetch ${cid('4')}`);
    expect(trace.at(-1)).toMatch(/^[0-9a-f]{64} - metadata hash$/);
    expect(trace.at(-2)).toMatch(/^[0-9a-f]{64} - transaction hash$/);
    expect(hash).toHaveLength(32);
  });
});
