import { generateKeyPairSync } from 'node:crypto';
import {
  CryptoKeyFormat,
  Enums_TopologyChangeOp,
  NamespaceDelegation,
  SigningKeySpec,
  SigningKeyUsage,
  SigningPublicKey,
  TopologyMapping,
  TopologyTransaction,
} from '@canton-network/core-ledger-proto';
import {
  computeMultiHashForTopology,
  computeSha256CantonHash,
  decodeTopologyTransaction as referenceDecode,
} from '@canton-network/core-tx-visualizer';
import { BinaryReader, UnknownFieldHandler } from '@protobuf-ts/runtime';
import { describe, expect, it } from 'vitest';
import { cantonHash, readSigningKey, topologyMultiHash, type PartySigningKey } from './keys';
import {
  decodeTopologyTransaction,
  encodePartyToParticipantTransaction,
  TOPOLOGY_TRANSACTION_PROTO_VERSION,
  TopologyDecodeError,
  unwrapVersioned,
  wrapVersioned,
} from './topology';

const ed25519Key = () => {
  const { publicKey } = generateKeyPairSync('ed25519');
  return readSigningKey({
    format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
    keyData: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
  });
};

const PARTICIPANT = `sandbox::1220${'ab'.repeat(32)}`;
const OTHER = `other::1220${'cd'.repeat(32)}`;

/** field 4 of a decoded PartyToParticipant, read with nothing but the wire format. */
function partySigningKeysOf(partyToParticipant: object) {
  const [field, ...more] = UnknownFieldHandler.list(partyToParticipant, 4);
  expect(more).toEqual([]);
  expect(field?.wireType).toBe(2);
  const reader = new BinaryReader(new BinaryReader(field?.data ?? new Uint8Array()).bytes());
  const keys: SigningPublicKey[] = [];
  let threshold = 0;
  while (reader.pos < reader.len) {
    const [no] = reader.tag();
    if (no === 1) keys.push(SigningPublicKey.fromBinary(reader.bytes()));
    else threshold = reader.uint32();
  }
  return { keys, threshold };
}

describe('topology transactions', () => {
  it('encodes a PartyToParticipant the reference decoder reads, with the party key in field 4', async () => {
    const key = ed25519Key();
    const party = `alice::${key.fingerprint}`;
    const wrapped = encodePartyToParticipantTransaction({
      party,
      threshold: 2,
      participants: [
        { participantUid: PARTICIPANT, permission: 'CONFIRMATION' },
        { participantUid: OTHER, permission: 'CONFIRMATION' },
      ],
      partySigningKeys: { keys: [key], threshold: 1 },
    });
    const { data, version } = unwrapVersioned(wrapped);
    expect(version).toBe(TOPOLOGY_TRANSACTION_PROTO_VERSION);
    const transaction = referenceDecode(Buffer.from(data ?? []).toString('base64'));
    expect(transaction.operation).toBe(Enums_TopologyChangeOp.ADD_REPLACE);
    expect(transaction.serial).toBe(1);
    const mapping = transaction.mapping?.mapping;
    if (mapping?.oneofKind !== 'partyToParticipant') throw new Error('not a PartyToParticipant');
    expect(mapping.partyToParticipant).toMatchObject({
      party,
      threshold: 2,
      participants: [
        { participantUid: PARTICIPANT, permission: 2 },
        { participantUid: OTHER, permission: 2 },
      ],
    });
    const { keys, threshold } = partySigningKeysOf(mapping.partyToParticipant);
    expect(threshold).toBe(1);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      format: CryptoKeyFormat.DER_X509_SUBJECT_PUBLIC_KEY_INFO,
      keySpec: SigningKeySpec.EC_CURVE25519,
      usage: [
        SigningKeyUsage.NAMESPACE,
        SigningKeyUsage.PROOF_OF_OWNERSHIP,
        SigningKeyUsage.PROTOCOL,
      ],
    });
    expect(Buffer.from(keys[0]?.publicKey ?? []).equals(key.spki)).toBe(true);
    // The hashes agree with the reference hasher's.
    const referenceHash = await computeSha256CantonHash(11, wrapped);
    expect(Buffer.from(referenceHash).equals(cantonHash(11, wrapped))).toBe(true);
    const referenceMulti = await computeSha256CantonHash(
      55,
      await computeMultiHashForTopology([referenceHash]),
    );
    expect(topologyMultiHash([cantonHash(11, wrapped)]).equals(Buffer.from(referenceMulti))).toBe(
      true,
    );
  });

  it('decodes its own encoding back, keys and usages included', () => {
    const key = ed25519Key();
    const party = `bob::${key.fingerprint}`;
    const decoded = decodeTopologyTransaction(
      encodePartyToParticipantTransaction({
        party,
        threshold: 1,
        participants: [
          { participantUid: PARTICIPANT, permission: 'OBSERVATION' },
          { participantUid: OTHER, permission: 'CONFIRMATION' },
        ],
        partySigningKeys: { keys: [key], threshold: 1 },
      }),
    );
    expect(decoded).toEqual({
      operation: 'ADD_REPLACE',
      serial: 1,
      mapping: {
        kind: 'PartyToParticipant',
        partyToParticipant: {
          party,
          threshold: 1,
          participants: [
            { participantUid: PARTICIPANT, permission: 'OBSERVATION' },
            { participantUid: OTHER, permission: 'CONFIRMATION' },
          ],
          partySigningKeys: {
            keys: [{ key, usage: ['NAMESPACE', 'PROOF_OF_OWNERSHIP', 'PROTOCOL'] }],
            threshold: 1,
          },
        },
      },
    });
  });

  it('names other mappings and refuses what the participant cannot parse', () => {
    const delegation = TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: TopologyMapping.create({
        mapping: {
          oneofKind: 'namespaceDelegation',
          namespaceDelegation: NamespaceDelegation.create({ namespace: '1220ab' }),
        },
      }),
    });
    expect(
      decodeTopologyTransaction(wrapVersioned(TopologyTransaction.toBinary(delegation))).mapping,
    ).toEqual({ kind: 'NamespaceDelegation' });
    const problem = (bytes: Uint8Array) => {
      try {
        decodeTopologyTransaction(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(TopologyDecodeError);
        return (error as Error).message;
      }
      throw new Error('decoded');
    };
    expect(problem(wrapVersioned(TopologyTransaction.toBinary(delegation), 31))).toContain(
      'Unsupported proto version 31',
    );
    expect(problem(new Uint8Array([0x0a, 0x05, 0x01]))).toContain('Failed to parse');
    expect(problem(new Uint8Array([0x10, 0x1e]))).toBe('Field `data` is not set');
    // A party_signing_keys field that is not a message, and the same key twice.
    const key = ed25519Key();
    const party = `carol::${key.fingerprint}`;
    const withKeys = (keys: PartySigningKey[]) =>
      encodePartyToParticipantTransaction({
        party,
        threshold: 1,
        participants: [{ participantUid: PARTICIPANT, permission: 'CONFIRMATION' }],
        partySigningKeys: { keys, threshold: 1 },
      });
    const { data } = unwrapVersioned(withKeys([key]));
    const broken = TopologyTransaction.fromBinary(data ?? new Uint8Array());
    const mapping = broken.mapping?.mapping;
    if (mapping?.oneofKind !== 'partyToParticipant') throw new Error('not a PartyToParticipant');
    const [field] = UnknownFieldHandler.list(mapping.partyToParticipant, 4);
    if (field) field.data = new Uint8Array([0x05, 0x0a, 0x09, 0x01]);
    expect(problem(wrapVersioned(TopologyTransaction.toBinary(broken)))).toMatch(
      /^Failed to parse the topology transaction: /,
    );
    expect(problem(withKeys([key, key]))).toBe(
      `All signing keys must be unique. Duplicate keys: ${key.fingerprint}`,
    );
    const empty = TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
    });
    expect(problem(wrapVersioned(TopologyTransaction.toBinary(empty)))).toBe(
      'Field `TopologyMapping.mapping` is not set',
    );
  });
});
