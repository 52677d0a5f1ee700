import { createHash, generateKeyPairSync } from 'node:crypto';
import { decodeTopologyTransaction } from '@canton-network/core-tx-visualizer';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '@/testing/sandbox-network';
import {
  MAX_TOPOLOGY_TRANSACTIONS,
  readTopology,
  TopologyDecodeError,
} from './external-party-topology';
import { fromBase64, toBase64, toHex } from './bytes';

type Generated = {
  partyId: string;
  publicKeyFingerprint: string;
  topologyTransactions: string[];
  multiHash: string;
};

function rawPublicKey() {
  const { publicKey } = generateKeyPairSync('ed25519');
  return Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
}

async function generate(
  sandbox: ReturnType<typeof createSandbox>,
  extra: Record<string, unknown> = {},
): Promise<Generated> {
  const response = await sandbox.fetch(
    new Request('http://sandbox/v2/parties/external/generate-topology', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        synchronizer: sandbox.state.synchronizerId,
        partyHint: 'wallet',
        publicKey: {
          format: 'CRYPTO_KEY_FORMAT_RAW',
          keyData: rawPublicKey().toString('base64'),
          keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
        },
        ...extra,
      }),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Generated;
}

/** Canton's hash, computed apart from the code under test: `1220` ‖ SHA-256(int32be ‖ bytes). */
function cantonHash(purpose: number, bytes: Uint8Array): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeInt32BE(purpose);
  return Buffer.concat([
    Buffer.from([0x12, 0x20]),
    createHash('sha256').update(prefix).update(bytes).digest(),
  ]);
}

describe('readTopology', () => {
  it("decodes the participant's PartyToParticipant and recomputes its multi-hash", async () => {
    const sandbox = createSandbox();
    const generated = await generate(sandbox);

    const view = await readTopology(generated.topologyTransactions, generated.multiHash);

    expect(view.isMultiHashMatching).toBe(true);
    expect(view.multiHash.base64).toBe(generated.multiHash);
    expect(view.multiHash.hex).toBe(toHex(fromBase64(generated.multiHash) ?? new Uint8Array()));
    expect(view.transactions).toHaveLength(1);
    const [transaction] = view.transactions;
    const wrapped = fromBase64(generated.topologyTransactions[0] ?? '') ?? new Uint8Array();
    const hash = cantonHash(11, wrapped);
    expect(transaction?.hash).toBe(hash.toString('hex'));
    // One transaction: the multi-hash is over the count and its one length-prefixed hash.
    const preimage = Buffer.alloc(8);
    preimage.writeInt32BE(1, 0);
    preimage.writeInt32BE(hash.length, 4);
    expect(view.multiHash.hex).toBe(
      cantonHash(55, Buffer.concat([preimage, hash])).toString('hex'),
    );
    expect(transaction).toMatchObject({
      operation: 'ADD_REPLACE',
      serial: 1,
      mapping: {
        kind: 'PartyToParticipant',
        party: generated.partyId,
        threshold: 1,
        participants: [{ participantUid: sandbox.state.participantId, permission: 'CONFIRMATION' }],
        participantsLeftOut: 0,
        signingKeys: {
          keys: [
            {
              fingerprint: generated.publicKeyFingerprint,
              keySpec: 'EC_CURVE25519',
              usages: expect.arrayContaining(['NAMESPACE', 'PROTOCOL']) as unknown,
            },
          ],
          threshold: 1,
          keysLeftOut: 0,
        },
      },
    });
  });

  it('reads the same party and hosting as the Canton team decoder', async () => {
    const sandbox = createSandbox();
    const other = `participant2::1220${'ab'.repeat(32)}`;
    const generated = await generate(sandbox, {
      otherConfirmingParticipantUids: [other],
      confirmationThreshold: 2,
    });
    // Their decoder reads a bare TopologyTransaction; ours unwraps the versioned message first.
    const wrapped = fromBase64(generated.topologyTransactions[0] ?? '') ?? new Uint8Array();

    const view = await readTopology(generated.topologyTransactions, generated.multiHash);
    const [transaction] = view.transactions;
    expect(transaction?.mapping).toMatchObject({
      kind: 'PartyToParticipant',
      threshold: 2,
      participants: [
        { participantUid: sandbox.state.participantId, permission: 'CONFIRMATION' },
        { participantUid: other, permission: 'CONFIRMATION' },
      ],
    });
    const theirs = decodeTopologyTransaction(toBase64(unwrapData(wrapped))).mapping?.mapping;
    expect(theirs?.oneofKind).toBe('partyToParticipant');
    if (theirs?.oneofKind !== 'partyToParticipant') return;
    expect(transaction?.mapping).toMatchObject({
      party: theirs.partyToParticipant.party,
      threshold: theirs.partyToParticipant.threshold,
    });
    expect(
      transaction?.mapping.kind === 'PartyToParticipant'
        ? transaction.mapping.participants.map(({ participantUid }) => participantUid)
        : [],
    ).toEqual(theirs.partyToParticipant.participants.map(({ participantUid }) => participantUid));
  });

  it("marks a multi-hash that is not the transactions' as not matching", async () => {
    const generated = await generate(createSandbox());
    const other = await generate(createSandbox());

    const view = await readTopology(generated.topologyTransactions, other.multiHash);

    expect(view.isMultiHashMatching).toBe(false);
    expect(
      (await readTopology(generated.topologyTransactions, 'not base64!')).isMultiHashMatching,
    ).toBe(false);
  });

  it('refuses what it cannot or will not read', async () => {
    const generated = await generate(createSandbox());
    const one = generated.topologyTransactions[0] ?? '';

    await expect(readTopology([], generated.multiHash)).rejects.toThrow(TopologyDecodeError);
    await expect(
      readTopology(Array<string>(MAX_TOPOLOGY_TRANSACTIONS + 1).fill(one), generated.multiHash),
    ).rejects.toThrow(/17 topology transactions; at most 16/);
    await expect(readTopology(['***'], generated.multiHash)).rejects.toThrow(/not base64/);
    await expect(readTopology(['A'.repeat(400_000)], generated.multiHash)).rejects.toThrow(
      /too large/,
    );
    // A wrapper without data, and data that is no TopologyTransaction.
    await expect(readTopology([toBase64(Uint8Array.of(0x10, 0x1e))], '')).rejects.toThrow(
      /holds no data/,
    );
    await expect(
      readTopology([toBase64(Uint8Array.of(0x0a, 0x02, 0xff, 0xff))], ''),
    ).rejects.toThrow(TopologyDecodeError);
  });
});

/** Field 1 of the versioned wrapper, read apart from the code under test (one-byte length). */
function unwrapData(wrapped: Uint8Array): Uint8Array {
  // tag 0x0a, then a varint length
  let at = 1;
  let length = 0;
  let shift = 0;
  for (;;) {
    const byte = wrapped[at] ?? 0;
    at += 1;
    length |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7;
  }
  return wrapped.subarray(at, at + length);
}
