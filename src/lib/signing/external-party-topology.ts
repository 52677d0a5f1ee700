/**
 * The topology transactions `generate-topology` answers, decoded in the browser so the user sees
 * what the party's key is asked to sign, and the multi-hash recomputed from the same bytes.
 * Loaded lazily (dynamic import from `api/external-parties.ts`): the protobuf bindings are large and
 * no first route needs them.
 */
import {
  CryptoKeyFormat,
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  SigningKeySpec,
  SigningKeyUsage,
  SigningPublicKey,
  TopologyTransaction,
} from '@canton-network/core-ledger-proto';
import {
  computeMultiHashForTopology,
  computeSha256CantonHash,
} from '@canton-network/core-tx-visualizer';
import { BinaryReader, UnknownFieldHandler, WireType } from '@protobuf-ts/runtime';
import { equalBytes, fromBase64, toBase64, toHex } from '@/lib/signing/bytes';
import { fingerprintOf } from '@/lib/signing/keys';

/** Canton's hash purposes (HashPurpose.scala): one topology transaction, and the multi-hash. */
const TOPOLOGY_TRANSACTION_PURPOSE = 11;
const MULTI_TOPOLOGY_TRANSACTIONS_PURPOSE = 55;
/** PartyToParticipant's `party_signing_keys` (Canton 3.4+), unknown to the 1.7 bindings. */
const PARTY_SIGNING_KEYS_FIELD = 4;

/** Bounds of what is decoded: generate-topology answers one transaction of a few hundred bytes. */
export const MAX_TOPOLOGY_TRANSACTIONS = 16;
export const MAX_TOPOLOGY_TRANSACTION_BYTES = 256 * 1024;
export const MAX_LISTED_PARTICIPANTS = 64;
export const MAX_LISTED_SIGNING_KEYS = 64;

export type HostingPermissionName = 'SUBMISSION' | 'CONFIRMATION' | 'OBSERVATION' | 'UNSPECIFIED';

export type TopologySigningKeyView = {
  fingerprint: string;
  /** `EC_CURVE25519`, `EC_P256`, …, as the proto names the spec. */
  keySpec: string;
  usages: string[];
};

export type TopologyMappingView =
  | {
      kind: 'PartyToParticipant';
      party: string;
      /** How many confirming participants must confirm. */
      threshold: number;
      participants: { participantUid: string; permission: HostingPermissionName }[];
      /** How many participants there were beyond those listed (bounded). */
      participantsLeftOut: number;
      /** The party's own keys (field 4), when the transaction carries them. */
      signingKeys?: { keys: TopologySigningKeyView[]; threshold: number; keysLeftOut: number };
    }
  | { kind: 'Other'; name: string };

export type TopologyTransactionView = {
  operation: 'ADD_REPLACE' | 'REMOVE' | 'UNSPECIFIED';
  serial: number;
  /** `1220…` hex: SHA-256 over purpose 11 and the versioned bytes, as Canton hashes it. */
  hash: string;
  mapping: TopologyMappingView;
};

export type TopologyView = {
  transactions: TopologyTransactionView[];
  /** The multi-hash recomputed here from the transactions' bytes. */
  multiHash: { hex: string; base64: string; bytes: Uint8Array };
  /** Whether the participant's `multiHash` is the same bytes. */
  isMultiHashMatching: boolean;
};

/** The bytes were not a topology transaction this console can read. */
export class TopologyDecodeError extends Error {
  override readonly name = 'TopologyDecodeError';
}

/** Canton's `UntypedVersionedMessage { bytes data = 1; int32 version = 2 }`: its `data`. */
function unwrapVersioned(bytes: Uint8Array): Uint8Array {
  const reader = new BinaryReader(bytes);
  let data: Uint8Array | undefined;
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    if (fieldNo === 1 && wireType === WireType.LengthDelimited) data = reader.bytes();
    else reader.skip(wireType);
  }
  if (data === undefined) throw new TopologyDecodeError('The versioned wrapper holds no data.');
  return data;
}

// Partial: protobuf-ts keeps enum numbers this version does not name.
const PERMISSIONS: Partial<Record<number, HostingPermissionName>> = {
  [Enums_ParticipantPermission.UNSPECIFIED]: 'UNSPECIFIED',
  [Enums_ParticipantPermission.SUBMISSION]: 'SUBMISSION',
  [Enums_ParticipantPermission.CONFIRMATION]: 'CONFIRMATION',
  [Enums_ParticipantPermission.OBSERVATION]: 'OBSERVATION',
};

const permissionName = (permission: Enums_ParticipantPermission): HostingPermissionName =>
  PERMISSIONS[permission] ?? 'UNSPECIFIED';

/** An enum value's name; a number this version of the bindings does not know, as such. */
function enumName(names: Partial<Record<number, string>>, value: number): string {
  return names[value] ?? `UNKNOWN(${String(value)})`;
}

/** Canton's fingerprint: over the raw 32 bytes of an Ed25519 key, the encoding of any other. */
async function keyFingerprint(key: SigningPublicKey): Promise<string> {
  const isEd25519 = key.keySpec === SigningKeySpec.EC_CURVE25519;
  const isSpki = key.format === CryptoKeyFormat.DER_X509_SUBJECT_PUBLIC_KEY_INFO;
  return fingerprintOf(isEd25519 && isSpki ? key.publicKey.subarray(-32) : key.publicKey);
}

async function readSigningKeys(
  partyToParticipant: object,
): Promise<
  Extract<TopologyMappingView, { kind: 'PartyToParticipant' }>['signingKeys'] | undefined
> {
  const fields = UnknownFieldHandler.list(partyToParticipant, PARTY_SIGNING_KEYS_FIELD);
  if (fields.length === 0) return undefined;
  const keys: TopologySigningKeyView[] = [];
  let keysLeftOut = 0;
  let threshold = 0;
  // A message field given several times merges: the keys add up, the last threshold wins.
  for (const field of fields) {
    if (field.wireType !== WireType.LengthDelimited) {
      throw new TopologyDecodeError('party_signing_keys has the wrong wire type.');
    }
    const reader = new BinaryReader(new BinaryReader(field.data).bytes());
    while (reader.pos < reader.len) {
      const [fieldNo, wireType] = reader.tag();
      if (fieldNo === 1 && wireType === WireType.LengthDelimited) {
        const bytes = reader.bytes();
        if (keys.length === MAX_LISTED_SIGNING_KEYS) {
          keysLeftOut += 1;
          continue;
        }
        const key = SigningPublicKey.fromBinary(bytes);
        keys.push({
          fingerprint: await keyFingerprint(key),
          keySpec: enumName(SigningKeySpec, key.keySpec),
          usages: key.usage.map((usage) => enumName(SigningKeyUsage, usage)),
        });
      } else if (fieldNo === 2 && wireType === WireType.Varint) {
        threshold = reader.uint32();
      } else {
        reader.skip(wireType);
      }
    }
  }
  return { keys, threshold, keysLeftOut };
}

async function readTransaction(
  wrapped: Uint8Array,
  hash: Uint8Array,
): Promise<TopologyTransactionView> {
  let transaction: TopologyTransaction;
  try {
    transaction = TopologyTransaction.fromBinary(unwrapVersioned(wrapped));
  } catch (error) {
    if (error instanceof TopologyDecodeError) throw error;
    throw new TopologyDecodeError('The bytes are not a topology transaction.');
  }
  const operation =
    transaction.operation === Enums_TopologyChangeOp.ADD_REPLACE
      ? 'ADD_REPLACE'
      : transaction.operation === Enums_TopologyChangeOp.REMOVE
        ? 'REMOVE'
        : 'UNSPECIFIED';
  const mapping = transaction.mapping?.mapping;
  let view: TopologyMappingView;
  if (mapping?.oneofKind === 'partyToParticipant') {
    const { party, threshold, participants } = mapping.partyToParticipant;
    view = {
      kind: 'PartyToParticipant',
      party,
      threshold,
      participants: participants
        .slice(0, MAX_LISTED_PARTICIPANTS)
        .map(({ participantUid, permission }) => ({
          participantUid,
          permission: permissionName(permission),
        })),
      participantsLeftOut: Math.max(0, participants.length - MAX_LISTED_PARTICIPANTS),
    };
    const signingKeys = await readSigningKeys(mapping.partyToParticipant);
    if (signingKeys) view.signingKeys = signingKeys;
  } else {
    view = { kind: 'Other', name: mapping?.oneofKind ?? 'none' };
  }
  return { operation, serial: transaction.serial, hash: toHex(hash), mapping: view };
}

/**
 * Decodes `generate-topology`'s transactions (base64 `UntypedVersionedMessage`s) and recomputes
 * the multi-hash over their hashes, as Canton and the wallet SDK do, to compare it with the
 * participant's `multiHash` (base64). Throws {@link TopologyDecodeError} on bytes it cannot read.
 */
export async function readTopology(
  topologyTransactions: readonly string[],
  participantMultiHash: string,
): Promise<TopologyView> {
  if (topologyTransactions.length === 0) {
    throw new TopologyDecodeError('The participant answered no topology transaction.');
  }
  if (topologyTransactions.length > MAX_TOPOLOGY_TRANSACTIONS) {
    throw new TopologyDecodeError(
      `The participant answered ${String(topologyTransactions.length)} topology transactions; at most ${String(MAX_TOPOLOGY_TRANSACTIONS)} are shown.`,
    );
  }
  const wrapped = topologyTransactions.map((base64, index) => {
    // Four base64 characters per three bytes: refuse before decoding a huge string.
    if (base64.length > (MAX_TOPOLOGY_TRANSACTION_BYTES / 3) * 4 + 4) {
      throw new TopologyDecodeError(`Topology transaction ${String(index + 1)} is too large.`);
    }
    const bytes = fromBase64(base64);
    if (!bytes) {
      throw new TopologyDecodeError(`Topology transaction ${String(index + 1)} is not base64.`);
    }
    return bytes;
  });
  const hashes = await Promise.all(
    wrapped.map((bytes) => computeSha256CantonHash(TOPOLOGY_TRANSACTION_PURPOSE, bytes)),
  );
  const transactions = await Promise.all(
    wrapped.map((bytes, index) => readTransaction(bytes, hashes[index] ?? new Uint8Array())),
  );
  const multiHash = await computeSha256CantonHash(
    MULTI_TOPOLOGY_TRANSACTIONS_PURPOSE,
    await computeMultiHashForTopology(hashes),
  );
  const theirs = fromBase64(participantMultiHash);
  return {
    transactions,
    multiHash: { hex: toHex(multiHash), base64: toBase64(multiHash), bytes: multiHash },
    isMultiHashMatching: theirs !== null && equalBytes(theirs, multiHash),
  };
}
