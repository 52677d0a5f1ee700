import {
  SandboxError,
  invalidArgument,
  invalidField,
  missingField,
} from '../../errors/sandbox-error';
import {
  lengthLimitProblem,
  safeSimpleStringProblem,
  uniqueIdentifierProblem,
} from '../../validation/unique-identifier';
import {
  cantonHash,
  HASH_PURPOSE,
  readSigningKey,
  topologyMultiHash,
  verifySignature,
  type PartySigningKey,
  type WireSignature,
  type WireSigningPublicKey,
} from './keys';
import {
  decodeTopologyTransaction,
  encodePartyToParticipantTransaction,
  readableParticipant,
  readableUid,
  TopologyDecodeError,
  type DecodedTopologyTransaction,
  type HostingParticipant,
  type HostingPermission,
  type PartyToParticipantMapping,
} from './topology';

/**
 * External parties (Canton's ApiPartyManagementService.generateExternalPartyTopology and
 * allocateExternalParty, ExternalPartyOnboardingDetails, PartyOps.allocateExternalParty): the
 * topology a client signs, and the checks its signed copy must pass before the party is hosted.
 */

/** What onboarding needs to know of the participant. */
export type ExternalPartyContext = {
  /** This participant's unique identifier, `<name>::<namespace>`. */
  participantId: string;
  synchronizerIds: readonly string[];
};

/** Most transactions, and most signatures in one list, an allocation may carry (inferred). */
export const MAX_ONBOARDING_TRANSACTIONS = 64;
export const MAX_ONBOARDING_SIGNATURES = 64;
/** Most bytes of one onboarding transaction (inferred): a PartyToParticipant is a few hundred. */
export const MAX_ONBOARDING_TRANSACTION_BYTES = 256 * 1024;

const MAX_IDENTIFIER_LENGTH = 185;

// ── generate-topology ──────────────────────────────────────────────────────────────────────────

export type GenerateExternalPartyTopologyRequest = {
  synchronizer: string;
  partyHint: string;
  publicKey?: WireSigningPublicKey | null | undefined;
  localParticipantObservationOnly: boolean;
  otherConfirmingParticipantUids: string[];
  confirmationThreshold: number;
  observingParticipantUids: string[];
};

export type GeneratedExternalPartyTopology = {
  partyId: string;
  publicKeyFingerprint: string;
  /** Base64 of each wrapped topology transaction. */
  topologyTransactions: string[];
  /** Base64 of the multi-hash over all of them, which the party signs. */
  multiHash: string;
};

/**
 * The topology that onboards a party with its own key, checked in the participant's order; each
 * refusal is an INVALID_ARGUMENT with the participant's message.
 */
export function generateExternalPartyTopology(
  context: ExternalPartyContext,
  request: GenerateExternalPartyTopologyRequest,
): GeneratedExternalPartyTopology {
  const reject = (message: string) => invalidArgument(message);
  if (!request.publicKey) throw reject('Field `public_key` is not set');
  const key = readSigningKey(request.publicKey);
  const synchronizerProblem = uniqueIdentifierProblem(request.synchronizer);
  if (synchronizerProblem) throw reject(synchronizerProblem);
  if (!context.synchronizerIds.includes(request.synchronizer)) {
    throw reject(`Unknown or not connected synchronizer ${readableUid(request.synchronizer)}`);
  }
  const hint = request.partyHint;
  if (hint === '') throw reject('Party hint is empty');
  const hintProblem = safeSimpleStringProblem(hint);
  if (hintProblem) throw reject(`party_hint: ${hintProblem}`);
  const hintLength = lengthLimitProblem(hint, MAX_IDENTIFIER_LENGTH);
  if (hintLength) throw reject(hintLength);
  const threshold = request.confirmationThreshold;
  if (threshold < 0) throw reject('Negative confirmation threshold observed');
  const confirming = request.otherConfirmingParticipantUids;
  const observing = request.observingParticipantUids;
  for (const uid of [...confirming, ...observing]) {
    const problem = uniqueIdentifierProblem(uid);
    if (problem) throw reject(problem);
  }
  const self = context.participantId;
  for (const [uids, field] of [
    [confirming, 'otherConfirmingParticipantUids'],
    [observing, 'observingParticipantUids'],
  ] as const) {
    if (uids.includes(self)) {
      throw reject(
        `This participant node (${readableParticipant(self)}) is also listed in '${field}'. By sending the request to this node, it is de facto a hosting node and must not be listed in '${field}'.`,
      );
    }
  }
  const all = [...confirming, ...observing];
  const duplicates = [...new Set(all.filter((uid, index) => all.indexOf(uid) !== index))];
  if (duplicates.length > 0) {
    throw reject(
      `The following participant IDs are referenced multiple times in the request: ${duplicates.map(readableUid).join(', ')}. Please ensure all IDs are referenced only once across 'otherConfirmingParticipantUids' and 'observingParticipantUids' fields.`,
    );
  }
  const availableConfirmers = (request.localParticipantObservationOnly ? 0 : 1) + confirming.length;
  if (threshold > availableConfirmers) {
    throw reject('Confirmation threshold exceeds number of confirming participants');
  }
  if (threshold === 0 && availableConfirmers === 0) {
    // The participant builds a PositiveInt of 0 here and fails with an unhandled exception.
    throw new SandboxError('INTERNAL_ERROR', 'Confirmation threshold of 0 is not positive');
  }
  const partyId = `${hint}::${key.fingerprint}`;
  const participants: HostingParticipant[] = [
    {
      participantUid: self,
      permission: request.localParticipantObservationOnly ? 'OBSERVATION' : 'CONFIRMATION',
    },
    ...confirming.map((participantUid) => ({
      participantUid,
      permission: 'CONFIRMATION' as const,
    })),
    ...observing.map((participantUid) => ({ participantUid, permission: 'OBSERVATION' as const })),
  ];
  const transaction = encodePartyToParticipantTransaction({
    party: partyId,
    threshold: threshold === 0 ? availableConfirmers : threshold,
    participants,
    partySigningKeys: { keys: [key], threshold: 1 },
  });
  const hash = cantonHash(HASH_PURPOSE.topologyTransactionSignature, transaction);
  return {
    partyId,
    publicKeyFingerprint: key.fingerprint,
    topologyTransactions: [Buffer.from(transaction).toString('base64')],
    multiHash: topologyMultiHash([hash]).toString('base64'),
  };
}

// ── allocate ───────────────────────────────────────────────────────────────────────────────────

export type AllocateExternalPartyRequest = {
  synchronizer: string;
  onboardingTransactions: { transaction: Uint8Array; signatures: WireSignature[] }[];
  multiHashSignatures: WireSignature[];
};

/** A signed request that passed the participant's checks of its content. */
export type ExternalPartyOnboarding = {
  partyId: string;
  synchronizerId: string;
  /** The PartyToParticipant's hosting participants, this one among them. */
  participants: HostingParticipant[];
  /** How this participant hosts the party. */
  permission: HostingPermission;
  signingKeys: PartySigningKey[];
  signingThreshold: number;
  /** Whether the party's signatures authorize the hosting (else it stays a proposal). */
  authorization: () => 'authorized' | 'proposal';
};

type Signed = {
  transaction: DecodedTopologyTransaction;
  bytes: Uint8Array;
  hash: Buffer;
  signatures: WireSignature[];
};

/**
 * CryptoValidator.validateSignature: the enums must be set (its format check names the field
 * `format` whatever the list), the signer must read as a fingerprint.
 */
function checkSignature(signature: WireSignature, fieldName: string) {
  if (signature.format === 'SIGNATURE_FORMAT_UNSPECIFIED') {
    throw invalidField('format', 'Signature format must be specified');
  }
  const signerProblem =
    safeSimpleStringProblem(signature.signedBy) ?? lengthLimitProblem(signature.signedBy, 68);
  if (signerProblem) throw invalidField(fieldName, signerProblem);
  if (signature.signingAlgorithmSpec === 'SIGNING_ALGORITHM_SPEC_UNSPECIFIED') {
    throw invalidField(
      fieldName,
      `Signing algorithm spec ${signature.signingAlgorithmSpec} not supported`,
    );
  }
}

function checkSignatureCount(signatures: readonly WireSignature[], fieldName: string) {
  if (signatures.length > MAX_ONBOARDING_SIGNATURES) {
    throw invalidField(
      fieldName,
      `At most ${String(MAX_ONBOARDING_SIGNATURES)} signatures are accepted, got ${String(signatures.length)}`,
    );
  }
}

/** The synchronizer of a request: a logical id, or a physical one (`<id>::<pv>-<serial>`). */
function requestedSynchronizer(context: ExternalPartyContext, raw: string): string {
  if (raw === '') throw missingField('synchronizer');
  const physical = /^(.+::[^:]+)::\d+-\d+$/.exec(raw);
  const logical = physical?.[1] ?? raw;
  const problem = uniqueIdentifierProblem(logical);
  if (problem) throw invalidField('synchronizer', problem);
  if (!context.synchronizerIds.includes(logical)) {
    throw invalidArgument(
      `This node is not connected to the requested synchronizer ${readableUid(logical)}.`,
    );
  }
  return logical;
}

function decodeSigned(transaction: Uint8Array, signatures: WireSignature[]): Signed {
  if (transaction.length > MAX_ONBOARDING_TRANSACTION_BYTES) {
    throw invalidField(
      'onboarding_transactions.transaction',
      `Invalid transaction: a topology transaction has at most ${String(MAX_ONBOARDING_TRANSACTION_BYTES)} bytes`,
    );
  }
  let decoded: DecodedTopologyTransaction;
  try {
    decoded = decodeTopologyTransaction(transaction);
  } catch (error) {
    if (!(error instanceof TopologyDecodeError)) throw error;
    throw invalidField(
      'onboarding_transactions.transaction',
      `Invalid transaction: ${error.message}`,
    );
  }
  if (decoded.operation !== 'ADD_REPLACE') {
    throw invalidField(
      'onboarding_transactions.transaction',
      'Onboarding topology transactions must be Replace operations',
    );
  }
  if (decoded.serial !== 1) {
    throw invalidField(
      'onboarding_transactions.transaction.serial',
      'Onboarding transaction serial must be 1',
    );
  }
  checkSignatureCount(signatures, 'onboarding_transaction.signatures');
  for (const signature of signatures)
    checkSignature(signature, 'onboarding_transaction.signatures');
  return {
    transaction: decoded,
    bytes: transaction,
    hash: cantonHash(HASH_PURPOSE.topologyTransactionSignature, transaction),
    signatures,
  };
}

const SUPPORTED_MAPPINGS = [
  'NamespaceDelegation',
  'DecentralizedNamespaceDefinition',
  'PartyToParticipant',
  'PartyToKeyMapping',
];

/**
 * Reads and checks an allocation's onboarding transactions and signatures, in the participant's
 * order, up to what it checks before looking at its state: request validation (INVALID_FIELD,
 * MISSING_FIELD) and ExternalPartyOnboardingDetails (INVALID_ARGUMENT). The returned
 * `authorization` then checks the signatures, as the topology manager does after the
 * participant has made sure the party is new.
 */
export function validateExternalPartyOnboarding(
  context: ExternalPartyContext,
  request: AllocateExternalPartyRequest,
  /** The request's other fields (IdP, user id), which the participant checks in between. */
  checkOtherFields: () => void = () => undefined,
): ExternalPartyOnboarding {
  const synchronizerId = requestedSynchronizer(context, request.synchronizer);
  if (request.onboardingTransactions.length > MAX_ONBOARDING_TRANSACTIONS) {
    throw invalidField(
      'onboarding_transactions',
      `At most ${String(MAX_ONBOARDING_TRANSACTIONS)} onboarding transactions are accepted, got ${String(request.onboardingTransactions.length)}`,
    );
  }
  const transactions = request.onboardingTransactions.map(({ transaction, signatures }) =>
    decodeSigned(transaction, signatures),
  );
  if (transactions.length === 0) {
    throw invalidField('onboarding_transactions.transactions', 'Transactions field is empty');
  }
  checkSignatureCount(request.multiHashSignatures, 'multi_hash_signatures.signatures');
  for (const signature of request.multiHashSignatures) {
    checkSignature(signature, 'multi_hash_signatures.signatures');
  }
  checkOtherFields();
  const reject = (message: string) => invalidArgument(message);

  const unsupported = [
    ...new Set(
      transactions
        .map(({ transaction }) => transaction.mapping.kind)
        .filter((kind) => !SUPPORTED_MAPPINGS.includes(kind)),
    ),
  ];
  if (unsupported.length > 0) {
    throw reject(
      `Unsupported transactions found: ${unsupported.join(', ')}. Supported transactions are: ${SUPPORTED_MAPPINGS.join(', ')}`,
    );
  }

  // Transactions with signatures of their own or of the multi-hash are "signed"; a signed
  // PartyToParticipant wins over unsigned ones, which then stay unused.
  const multiHash = topologyMultiHash(transactions.map(({ hash }) => hash));
  const isSigned = (signed: Signed) =>
    signed.signatures.length > 0 || request.multiHashSignatures.length > 0;
  const partyToParticipants = (signed: boolean) =>
    transactions.filter(
      (transaction) =>
        transaction.transaction.mapping.kind === 'PartyToParticipant' &&
        isSigned(transaction) === signed,
    );
  const signedOnes = partyToParticipants(true);
  const unsignedOnes = partyToParticipants(false);
  if (signedOnes.length > 1) {
    throw reject(
      `Only one transaction of type com.digitalasset.canton.topology.transaction.PartyToParticipant can be provided, got ${String(signedOnes.length)}`,
    );
  }
  if (signedOnes.length === 0 && unsignedOnes.length > 1) {
    throw reject(
      `Only one transaction of type PartyToParticipant can be provided, got ${String(unsignedOnes.length)}`,
    );
  }
  const chosen = signedOnes[0] ?? unsignedOnes[0];
  if (
    chosen?.transaction.mapping.kind !== 'PartyToParticipant' ||
    !('partyToParticipant' in chosen.transaction.mapping)
  ) {
    throw reject('One transaction of type PartyToParticipant must be provided, got 0');
  }
  const mapping: PartyToParticipantMapping = chosen.transaction.mapping.partyToParticipant;
  const permission = checkHosting(context, mapping);

  const others = transactions.filter(
    (transaction) => transaction.transaction.mapping.kind !== 'PartyToParticipant',
  );
  if (others.some(({ transaction }) => transaction.mapping.kind === 'PartyToKeyMapping')) {
    if (mapping.partySigningKeys) {
      throw reject(
        'Party signing keys must be supplied either in the PartyToParticipant or in a PartyToKeyMapping transaction. Not in both.',
      );
    }
  } else if (!mapping.partySigningKeys) {
    throw reject(
      'Party signing keys must be supplied either in the PartyToParticipant or in a PartyToKeyMapping transaction. Not in both.',
    );
  }
  if (others.length > 0) {
    // Namespaces of their own and separate key mappings: valid on a participant, not emulated.
    throw new SandboxError(
      'SANDBOX_UNSUPPORTED_TOPOLOGY',
      `The Ledger Console sandbox onboards an external party from one PartyToParticipant that carries the party's signing keys (what generate-topology answers); it does not emulate ${[...new Set(others.map(({ transaction }) => transaction.mapping.kind))].join(', ')} transactions. Use a real participant (--ledger) for them.`,
      { origin: 'sandbox' },
    );
  }
  const keys = mapping.partySigningKeys?.keys ?? [];
  return {
    partyId: mapping.party,
    synchronizerId,
    participants: mapping.participants,
    permission,
    signingKeys: keys.map(({ key }) => key),
    signingThreshold: mapping.partySigningKeys?.threshold ?? 1,
    authorization: () => authorize(mapping, chosen, request.multiHashSignatures, multiHash),
  };
}

/**
 * The PartyToParticipant's own rules and ExternalPartyOnboardingDetails' checks of its hosting;
 * answers how this participant hosts the party.
 */
function checkHosting(
  context: ExternalPartyContext,
  mapping: PartyToParticipantMapping,
): HostingPermission {
  const reject = (message: string) => invalidArgument(message);
  const withPermission = (permission: HostingPermission) =>
    mapping.participants
      .filter((participant) => participant.permission === permission)
      .map(({ participantUid }) => participantUid);
  const confirming = withPermission('CONFIRMATION');
  const submitting = withPermission('SUBMISSION');
  if (submitting.length > 0) {
    throw reject(
      `The PartyToParticipant transaction must not contain any node with Submission permission. Nodes with submission permission: ${submitting.map(readableParticipant).join(', ')}`,
    );
  }
  const [only, ...more] = mapping.participants;
  if (only && more.length === 0) {
    if (only.participantUid !== context.participantId || only.permission !== 'CONFIRMATION') {
      throw reject(
        `The party is to be hosted on a single participant (${readableParticipant(only.participantUid)}) that is not this participant (${readableParticipant(context.participantId)}). Submit the allocation request on ${readableParticipant(only.participantUid)} instead.`,
      );
    }
  }
  if (confirming.length === 0) {
    throw reject(
      'The PartyToParticipant transaction must contain at least one node with Confirmation permission',
    );
  }
  const keys = mapping.partySigningKeys?.keys ?? [];
  if (!keys.every(({ usage }) => usage.includes('PROTOCOL'))) {
    throw reject('Missing Protocol usage on signing keys');
  }
  const namespace = mapping.party.slice(mapping.party.indexOf('::') + 2);
  const namespaceKey = keys.find(({ key }) => key.fingerprint === namespace);
  if (namespaceKey && !namespaceKey.usage.includes('NAMESPACE')) {
    throw reject('Missing Namespace and Protocol usage on the party namespace key');
  }
  if (confirming.includes(context.participantId)) return 'CONFIRMATION';
  if (withPermission('OBSERVATION').includes(context.participantId)) return 'OBSERVATION';
  throw reject(
    'This node is not hosting the party either with Confirmation or Observation permission.',
  );
}

/**
 * The topology manager's check of the PartyToParticipant's signatures, once this participant
 * has added its own. Signatures by keys the transaction does not name are dropped; each of the
 * others must verify (over the transaction's hash, or the multi-hash of the request); the
 * transaction is authorized when its namespace key and every one of its signing keys signed.
 * Without a signature of the namespace key the participant stores a proposal and answers at
 * once; with one, a missing authorization is an error.
 */
function authorize(
  mapping: PartyToParticipantMapping,
  signed: Signed,
  multiHashSignatures: readonly WireSignature[],
  multiHash: Buffer,
): 'authorized' | 'proposal' {
  const keys = new Map(
    (mapping.partySigningKeys?.keys ?? []).map(({ key }) => [key.fingerprint, key]),
  );
  // One signature per signer, those of the transaction itself first (as the participant keeps them).
  const bySigner = new Map<string, { signature: WireSignature; message: Uint8Array }>();
  for (const signature of signed.signatures) {
    if (!bySigner.has(signature.signedBy)) {
      bySigner.set(signature.signedBy, { signature, message: signed.hash });
    }
  }
  for (const signature of multiHashSignatures) {
    if (!bySigner.has(signature.signedBy)) {
      bySigner.set(signature.signedBy, { signature, message: multiHash });
    }
  }
  if (bySigner.size === 0) return 'proposal';
  const namespace = mapping.party.slice(mapping.party.indexOf('::') + 2);
  const expectFullAuthorization = bySigner.has(namespace);
  const valid = new Set<string>();
  for (const [signer, { signature, message }] of bySigner) {
    const key = keys.get(signer);
    if (!key) continue;
    if (!verifySignature(key, signature, message)) {
      throw new SandboxError(
        'TOPOLOGY_INVALID_TX_SIGNATURE',
        'Transaction signature verification failed',
        {
          origin: 'status',
        },
      );
    }
    valid.add(signer);
  }
  const missingNamespace = !valid.has(namespace);
  const missingKeys = [...keys.keys()].filter((fingerprint) => !valid.has(fingerprint));
  if (!missingNamespace && missingKeys.length === 0) return 'authorized';
  if (!expectFullAuthorization) return 'proposal';
  const readable = (fingerprint: string) =>
    fingerprint.length <= 12 ? fingerprint : `${fingerprint.slice(0, 12)}...`;
  throw new SandboxError(
    'TOPOLOGY_UNAUTHORIZED_TRANSACTION',
    `Topology transaction is missing authorizations by namespaces=Set(${missingNamespace ? readable(namespace) : ''}) and keys=Set(${missingKeys.map(readable).join(', ')})`,
    { origin: 'status' },
  );
}
