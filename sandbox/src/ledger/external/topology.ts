import {
  CryptoKeyFormat,
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  PartyToParticipant,
  SigningKeySpec,
  SigningKeyUsage,
  SigningPublicKey,
  TopologyMapping,
  TopologyTransaction,
} from '@canton-network/core-ledger-proto';
import { BinaryReader, BinaryWriter, UnknownFieldHandler, WireType } from '@protobuf-ts/runtime';
import { uniqueIdentifierProblem } from '../../validation/unique-identifier';
import { parseSigningKey, SigningKeyProblem, type PartySigningKey } from './keys';

/**
 * Topology transactions as the participant serializes them: a v30 `TopologyTransaction` inside
 * Canton's `UntypedVersionedMessage { bytes data = 1; int32 version = 2 }`. The Canton team's
 * bindings (`@canton-network/core-ledger-proto`) encode the messages; the wrapper, which they do
 * not define, and PartyToParticipant's `party_signing_keys = 4` (added in Canton 3.4, after
 * their proto) go through protobuf-ts's own writer and unknown fields.
 */

/** The proto version of TopologyTransaction that protocol versions 33 and later write. */
export const TOPOLOGY_TRANSACTION_PROTO_VERSION = 30;

/** The most signing keys one PartyToParticipant may carry here (a sandbox bound, inferred). */
export const MAX_PARTY_SIGNING_KEYS = 64;

const PARTY_SIGNING_KEYS_FIELD = 4;

export type HostingPermission = 'SUBMISSION' | 'CONFIRMATION' | 'OBSERVATION';

export type HostingParticipant = { participantUid: string; permission: HostingPermission };

export type KeyUsage =
  | 'NAMESPACE'
  | 'IDENTITY_DELEGATION'
  | 'SEQUENCER_AUTHENTICATION'
  | 'PROTOCOL'
  | 'PROOF_OF_OWNERSHIP';

/** A party signing key of a PartyToParticipant, with what it may sign. */
export type TopologySigningKey = { key: PartySigningKey; usage: readonly KeyUsage[] };

export type PartyToParticipantMapping = {
  party: string;
  /** How many confirming participants must confirm. */
  threshold: number;
  participants: HostingParticipant[];
  /** The party's own keys (an external party); absent for a party the participants sign for. */
  partySigningKeys?: { keys: TopologySigningKey[]; threshold: number };
};

/** The mapping a topology transaction carries: a PartyToParticipant in full, others by name. */
export type DecodedMapping =
  { kind: 'PartyToParticipant'; partyToParticipant: PartyToParticipantMapping } | { kind: string };

export type DecodedTopologyTransaction = {
  operation: 'ADD_REPLACE' | 'REMOVE';
  serial: number;
  mapping: DecodedMapping;
};

/** A transaction that cannot be read; the message says why (the participant's wording, inferred). */
export class TopologyDecodeError extends Error {
  override readonly name = 'TopologyDecodeError';
}

/** What a key generated for a party may sign: its namespace, proofs of ownership, transactions. */
const PARTY_KEY_USAGE: readonly KeyUsage[] = ['NAMESPACE', 'PROOF_OF_OWNERSHIP', 'PROTOCOL'];

const PERMISSIONS: Record<HostingPermission, Enums_ParticipantPermission> = {
  SUBMISSION: Enums_ParticipantPermission.SUBMISSION,
  CONFIRMATION: Enums_ParticipantPermission.CONFIRMATION,
  OBSERVATION: Enums_ParticipantPermission.OBSERVATION,
};

const SPECS: Record<PartySigningKey['spec'], SigningKeySpec> = {
  SIGNING_KEY_SPEC_EC_CURVE25519: SigningKeySpec.EC_CURVE25519,
  SIGNING_KEY_SPEC_EC_P256: SigningKeySpec.EC_P256,
};

/** A party's key as Canton writes it into topology: X.509 SPKI, whatever format it came in. */
function toProtoKey({ key, usage }: TopologySigningKey): SigningPublicKey {
  return SigningPublicKey.create({
    format: CryptoKeyFormat.DER_X509_SUBJECT_PUBLIC_KEY_INFO,
    publicKey: key.spki,
    usage: usage.map((name) => SigningKeyUsage[name]),
    keySpec: SPECS[key.spec],
  });
}

/** `bytes` as the value of a length-delimited field: its length, then the bytes. */
const lengthDelimited = (bytes: Uint8Array) => new BinaryWriter().bytes(bytes).finish();

/**
 * The one topology transaction of an external party's onboarding, serialized and wrapped as
 * Canton 3.5 answers it from generate-topology: ADD_REPLACE, serial 1, a PartyToParticipant
 * that carries the party's keys.
 */
export function encodePartyToParticipantTransaction(
  mapping: Omit<PartyToParticipantMapping, 'partySigningKeys'> & {
    partySigningKeys: { keys: PartySigningKey[]; threshold: number };
  },
): Uint8Array {
  const partyToParticipant = PartyToParticipant.create({
    party: mapping.party,
    threshold: mapping.threshold,
    participants: mapping.participants.map(({ participantUid, permission }) => ({
      participantUid,
      permission: PERMISSIONS[permission],
    })),
  });
  const keys = new BinaryWriter();
  for (const key of mapping.partySigningKeys.keys) {
    keys
      .tag(1, WireType.LengthDelimited)
      .bytes(SigningPublicKey.toBinary(toProtoKey({ key, usage: PARTY_KEY_USAGE })));
  }
  keys.tag(2, WireType.Varint).uint32(mapping.partySigningKeys.threshold);
  UnknownFieldHandler.onRead(
    PartyToParticipant.typeName,
    partyToParticipant,
    PARTY_SIGNING_KEYS_FIELD,
    WireType.LengthDelimited,
    lengthDelimited(keys.finish()),
  );
  // Assigned, not passed to create(): create() copies message fields and would drop field 4.
  const topologyMapping = TopologyMapping.create();
  topologyMapping.mapping = { oneofKind: 'partyToParticipant', partyToParticipant };
  const transaction = TopologyTransaction.create({
    operation: Enums_TopologyChangeOp.ADD_REPLACE,
    serial: 1,
  });
  transaction.mapping = topologyMapping;
  return wrapVersioned(TopologyTransaction.toBinary(transaction));
}

/** Canton's `UntypedVersionedMessage` around `data`. */
export function wrapVersioned(
  data: Uint8Array,
  version: number = TOPOLOGY_TRANSACTION_PROTO_VERSION,
): Uint8Array {
  return new BinaryWriter()
    .tag(1, WireType.LengthDelimited)
    .bytes(data)
    .tag(2, WireType.Varint)
    .int32(version)
    .finish();
}

/** The `data` and `version` of an `UntypedVersionedMessage`. */
export function unwrapVersioned(bytes: Uint8Array): {
  data: Uint8Array | undefined;
  version: number;
} {
  const reader = new BinaryReader(bytes);
  let data: Uint8Array | undefined;
  let version = 0;
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    if (fieldNo === 1 && wireType === WireType.LengthDelimited) data = reader.bytes();
    else if (fieldNo === 2 && wireType === WireType.Varint) version = reader.int32();
    else reader.skip(wireType);
  }
  return { data, version };
}

const MAPPING_CLASS_NAMES: Record<string, string> = {
  namespaceDelegation: 'NamespaceDelegation',
  decentralizedNamespaceDefinition: 'DecentralizedNamespaceDefinition',
  ownerToKeyMapping: 'OwnerToKeyMapping',
  synchronizerTrustCertificate: 'SynchronizerTrustCertificate',
  participantPermission: 'ParticipantSynchronizerPermission',
  partyHostingLimits: 'PartyHostingLimits',
  vettedPackages: 'VettedPackages',
  partyToParticipant: 'PartyToParticipant',
  synchronizerParametersState: 'SynchronizerParametersState',
  mediatorSynchronizerState: 'MediatorSynchronizerState',
  sequencerSynchronizerState: 'SequencerSynchronizerState',
  purgeTopologyTxs: 'PurgeTopologyTransaction',
  sequencingDynamicParametersState: 'DynamicSequencingParametersState',
  partyToKeyMapping: 'PartyToKeyMapping',
};

/**
 * Reads a wrapped topology transaction as the participant does when a client sends it back
 * (TopologyTransaction.fromByteString): the wrapper, its proto version, the operation and the
 * mapping. Throws a {@link TopologyDecodeError}.
 */
export function decodeTopologyTransaction(wrapped: Uint8Array): DecodedTopologyTransaction {
  let transaction: TopologyTransaction;
  try {
    const { data, version } = unwrapVersioned(wrapped);
    if (data === undefined) throw new TopologyDecodeError('Field `data` is not set');
    if (version !== TOPOLOGY_TRANSACTION_PROTO_VERSION) {
      throw new TopologyDecodeError(
        `Unsupported proto version ${String(version)} of TopologyTransaction; supported: ${String(TOPOLOGY_TRANSACTION_PROTO_VERSION)}`,
      );
    }
    transaction = TopologyTransaction.fromBinary(data);
  } catch (error) {
    if (error instanceof TopologyDecodeError) throw error;
    throw new TopologyDecodeError(
      `Failed to parse the topology transaction: ${(error as Error).message}`,
    );
  }
  let operation: DecodedTopologyTransaction['operation'];
  if (transaction.operation === Enums_TopologyChangeOp.ADD_REPLACE) operation = 'ADD_REPLACE';
  else if (transaction.operation === Enums_TopologyChangeOp.REMOVE) operation = 'REMOVE';
  else throw new TopologyDecodeError('Field `operation` is not set');
  const serial = transaction.serial;
  if (serial === 0) {
    throw new TopologyDecodeError('Unable to convert numeric field `serial`: 0 is not positive');
  }
  const mapping = transaction.mapping?.mapping;
  if (mapping?.oneofKind === undefined) {
    throw new TopologyDecodeError('Field `TopologyMapping.mapping` is not set');
  }
  if (mapping.oneofKind !== 'partyToParticipant') {
    return {
      operation,
      serial,
      mapping: { kind: MAPPING_CLASS_NAMES[mapping.oneofKind] ?? mapping.oneofKind },
    };
  }
  return {
    operation,
    serial,
    mapping: {
      kind: 'PartyToParticipant',
      partyToParticipant: withDecodeErrors(() =>
        decodePartyToParticipant(mapping.partyToParticipant),
      ),
    },
  };
}

/** Runs `decode`, reporting a malformed message inside it (field 4 is read by hand) as such. */
function withDecodeErrors<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof TopologyDecodeError) throw error;
    throw new TopologyDecodeError(
      `Failed to parse the topology transaction: ${(error as Error).message}`,
    );
  }
}

const PERMISSION_NAMES = new Map<number, HostingPermission>(
  Object.entries(PERMISSIONS).map(([name, value]) => [value, name as HostingPermission]),
);

/**
 * A uid as Canton prints it into messages: the namespace's fingerprint cut to 12 characters
 * (PrettyPrinting's `readableHash`).
 */
export function readableUid(uid: string): string {
  const separator = uid.indexOf('::');
  if (separator < 0) return uid;
  const namespace = uid.slice(separator + 2);
  const shown = namespace.length <= 12 ? namespace : `${namespace.slice(0, 12)}...`;
  return `${uid.slice(0, separator)}::${shown}`;
}

/** A ParticipantId as Canton prints it: `PAR::` and its readable uid. */
export const readableParticipant = (uid: string) => `PAR::${readableUid(uid)}`;

/** PartyToParticipant.fromProtoV30 and the invariants its create() checks. */
function decodePartyToParticipant(message: PartyToParticipant): PartyToParticipantMapping {
  const partyProblem = uniqueIdentifierProblem(message.party);
  if (partyProblem) {
    throw new TopologyDecodeError(`Unable to convert field \`party\`: ${partyProblem}`);
  }
  if (message.threshold === 0) {
    throw new TopologyDecodeError('Unable to convert numeric field `threshold`: 0 is not positive');
  }
  const seen = new Set<string>();
  const participants = message.participants.map(({ participantUid, permission }) => {
    const uidProblem = uniqueIdentifierProblem(participantUid);
    if (uidProblem) {
      throw new TopologyDecodeError(`Unable to convert field \`participant_uid\`: ${uidProblem}`);
    }
    if (seen.has(participantUid)) {
      throw new TopologyDecodeError(
        `Participants may only be assigned one permission: ${readableParticipant(participantUid)}`,
      );
    }
    seen.add(participantUid);
    const name = PERMISSION_NAMES.get(permission);
    if (name === undefined) {
      throw new TopologyDecodeError(
        permission === Enums_ParticipantPermission.UNSPECIFIED
          ? 'Field `permission` is not set'
          : `Unrecognized value \`${String(permission)}\` in enum field \`permission\``,
      );
    }
    return { participantUid, permission: name };
  });
  const confirming = participants.filter(({ permission }) => permission !== 'OBSERVATION');
  // A party hosted only by observers may have any threshold; otherwise it must be reachable.
  if (confirming.length > 0 && message.threshold > confirming.length) {
    throw new TopologyDecodeError(
      `Party ${readableUid(message.party)} cannot meet threshold of ${String(message.threshold)} confirming participants with participants ${participants.map(({ participantUid, permission }) => `${readableParticipant(participantUid)} -> ${permission}`).join(', ')}`,
    );
  }
  const keysFields = UnknownFieldHandler.list(message, PARTY_SIGNING_KEYS_FIELD);
  const decoded: PartyToParticipantMapping = {
    party: message.party,
    threshold: message.threshold,
    participants,
  };
  if (keysFields.length === 0) return decoded;
  const keys: TopologySigningKey[] = [];
  let threshold = 0;
  // A message field given several times merges: the keys add up, the last threshold wins.
  for (const field of keysFields) {
    if (field.wireType !== WireType.LengthDelimited) {
      throw new TopologyDecodeError('Field `party_signing_keys` has the wrong wire type');
    }
    const reader = new BinaryReader(new BinaryReader(field.data).bytes());
    while (reader.pos < reader.len) {
      const [fieldNo, wireType] = reader.tag();
      if (fieldNo === 1 && wireType === WireType.LengthDelimited) {
        if (keys.length === MAX_PARTY_SIGNING_KEYS) {
          throw new TopologyDecodeError(
            `A PartyToParticipant may carry at most ${String(MAX_PARTY_SIGNING_KEYS)} party signing keys`,
          );
        }
        keys.push(decodeSigningKey(SigningPublicKey.fromBinary(reader.bytes())));
      } else if (fieldNo === 2 && wireType === WireType.Varint) {
        threshold = reader.uint32();
      } else {
        reader.skip(wireType);
      }
    }
  }
  if (keys.length === 0) {
    throw new TopologyDecodeError('Field `keys` of `party_signing_keys` must be non-empty');
  }
  const fingerprints = keys.map(({ key }) => key.fingerprint);
  const repeated = fingerprints.filter(
    (fingerprint, index) => fingerprints.indexOf(fingerprint) !== index,
  );
  if (repeated.length > 0) {
    throw new TopologyDecodeError(
      `All signing keys must be unique. Duplicate keys: ${[...new Set(repeated)].join(', ')}`,
    );
  }
  if (threshold === 0) {
    throw new TopologyDecodeError('Unable to convert numeric field `threshold`: 0 is not positive');
  }
  if (threshold > keys.length) {
    throw new TopologyDecodeError(
      `Party ${message.party} cannot meet threshold of ${String(threshold)} signing keys with ${String(keys.length)} keys`,
    );
  }
  decoded.partySigningKeys = { keys, threshold };
  return decoded;
}

const ALL_USAGES: readonly KeyUsage[] = [
  'NAMESPACE',
  'SEQUENCER_AUTHENTICATION',
  'PROTOCOL',
  'PROOF_OF_OWNERSHIP',
];

function decodeSigningKey(key: SigningPublicKey): TopologySigningKey {
  const format = CryptoKeyFormat[key.format] as string | undefined;
  const spec = SigningKeySpec[key.keySpec] as string | undefined;
  if (format === undefined || format === 'UNSPECIFIED') {
    throw new TopologyDecodeError('Field `format` is not set');
  }
  if (spec === undefined || spec === 'UNSPECIFIED') {
    throw new TopologyDecodeError('Field `key_spec` is not set');
  }
  let parsed: PartySigningKey;
  try {
    parsed = parseSigningKey({
      format: `CRYPTO_KEY_FORMAT_${format}`,
      keyData: Buffer.from(key.publicKey).toString('base64'),
      keySpec: `SIGNING_KEY_SPEC_${spec}`,
    });
  } catch (error) {
    if (error instanceof SigningKeyProblem) throw new TopologyDecodeError(error.message);
    throw error;
  }
  const usage: KeyUsage[] = [];
  for (const value of key.usage) {
    const name = SigningKeyUsage[value] as KeyUsage | 'UNSPECIFIED' | undefined;
    if (name === undefined || name === 'UNSPECIFIED') {
      throw new TopologyDecodeError(
        `Unrecognized value \`${String(value)}\` in enum field \`usage\``,
      );
    }
    if (!usage.includes(name)) usage.push(name);
  }
  // A key without usages is from before usages existed and may sign anything
  // (SigningKeyUsage.fromProtoListWithDefault).
  return { key: parsed, usage: usage.length === 0 ? ALL_USAGES : usage };
}
