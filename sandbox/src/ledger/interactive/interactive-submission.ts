import { randomBytes, randomUUID } from 'node:crypto';
import {
  PreparedTransaction,
  type DamlTransaction,
  type DamlTransaction_Node,
  type Identifier,
  type Metadata_InputContract,
} from '@canton-network/core-ledger-proto';
import type { DamlType } from '@ledger-console/participant/daml-lf/package-model';
import { SandboxError } from '../../errors/sandbox-error';
import type { LedgerState } from '../../ledger-state';
import { ledgerStringProblem, partyProblem } from '../../validation/identifiers';
import { DEMO_SIGNATURES } from '../demo-package';
import { verifySignature, type WireSignature } from '../external/keys';
import type { Command, InterpretedTransaction } from '../interpreter';
import type { Deduplication } from '../ledger';
import {
  formatMicros,
  isWellFormedContractId,
  nowMicros,
  type CreateNode,
  type TransactionRecord,
} from '../transaction';
import {
  confirmationRequestCost,
  estimateTrafficCost,
  type CostEstimation,
} from './cost-estimation';
import {
  EncodingError,
  choiceOf,
  contractIdOf,
  encodeDamlTransaction,
  encodeInputContract,
  encodeMetadata,
  LF_SERIALIZATION_VERSION,
} from './prepared-transaction';
import {
  ValueShapeError,
  fromProtoValue,
  identifierToId,
  isoToMicros,
  type ValueCodec,
} from './proto-value';
import {
  HashingError,
  createNodeHash,
  preparedTransactionHashV2,
  transactionHashV2,
} from './v2-hash';

/**
 * The interactive submission service: `prepare` interprets commands as a submission would and
 * answers the transaction as Canton's PreparedTransaction with its hashing-scheme-V2 hash;
 * `execute` takes such a transaction back with the external parties' signatures, checks them
 * against the hash recomputed from the bytes received, and commits it.
 */

export const HASHING_SCHEME_VERSION_V2 = 'HASHING_SCHEME_VERSION_V2';

/**
 * The protocol version of the sandbox's synchronizers: 34, the first of Canton 3.5's stable ones,
 * on which hashing scheme V2 is the only one and prepared transactions name the logical
 * synchronizer id (`PhysicalSynchronizerId.forExternalTransactionHashing`).
 */
export const SANDBOX_PROTOCOL_VERSION = 34;

/** Canton's `maximumNumberOfSignaturesPerParty` default (InteractiveSubmissionServiceConfig). */
export const MAX_SIGNATURES_PER_PARTY = 50;

const failedToPrepare = (reason: string) =>
  new SandboxError(
    'FAILED_TO_PREPARE_TRANSACTION',
    `The participant failed to prepare the transaction: ${reason}`,
  );

const failedToExecute = (reason: string) =>
  new SandboxError(
    'FAILED_TO_EXECUTE_TRANSACTION',
    `The participant failed to execute the transaction: ${reason}`,
  );

/** HashingSchemeVersion's minimum protocol versions (V3 from 35, V4 on dev only). */
const MIN_PROTOCOL_VERSION: Readonly<Record<string, string>> = {
  HASHING_SCHEME_VERSION_V3: '35',
  HASHING_SCHEME_VERSION_V4: 'dev',
};

/** InteractiveSubmission.UnsupportedHashingSchemeVersion's message, or undefined for V2. */
function unsupportedScheme(version: string): string | undefined {
  if (version === HASHING_SCHEME_VERSION_V2) return undefined;
  const name = version.replace('HASHING_SCHEME_VERSION_', '');
  const pv = String(SANDBOX_PROTOCOL_VERSION);
  return `Hashing scheme version ${name} is not supported on protocol version ${pv}. Minimum protocol version for hashing version ${name}: ${MIN_PROTOCOL_VERSION[version] ?? 'Unsupported'}. Supported hashing version on protocol version ${pv}: V2`;
}

const codecFor = (state: LedgerState, contractId?: (id: string) => string): ValueCodec => ({
  packageId: state.demoPackageId,
  dataType: DEMO_SIGNATURES.dataType,
  ...(contractId ? { contractId } : {}),
});

// ── Prepare ──

export type PrepareRequest = {
  commands: Command[];
  actAs: string[];
  readAs: string[];
  disclosed: ReadonlyMap<string, CreateNode>;
  /** The synchronizer the request prescribes, or null to let routing choose. */
  synchronizerId: string | null;
  commandId: string;
  maxRecordTimeMicros: bigint | null;
  verboseHashing: boolean;
  hashingSchemeVersion: string;
  costEstimation: { disabled: boolean; expectedSignatures: readonly string[] };
};

export type PrepareResponse = {
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
  hashingDetails?: string;
  costEstimation?: CostEstimation;
};

/** A new contract's id before it is committed: Canton's `00` and a 32-byte discriminator. */
const localContractId = () => `00${randomBytes(32).toString('hex')}`;

export function prepareSubmission(state: LedgerState, request: PrepareRequest): PrepareResponse {
  // enforceSingleRootNode, on by default: one command, one root.
  if (request.commands.length > 1) {
    throw failedToPrepare('Preparing multiple commands is currently not supported');
  }
  const { interpreted, synchronizerId } = state.ledger.prepare(request, {
    newContractId: localContractId,
  });
  const unsupported = unsupportedScheme(request.hashingSchemeVersion);
  if (unsupported) throw failedToPrepare(unsupported);
  let prepared: PreparedTransaction;
  try {
    prepared = encodePrepared(state, interpreted, codecFor(state), {
      ...request,
      synchronizerId,
    });
  } catch (error) {
    if (error instanceof EncodingError || error instanceof ValueShapeError) {
      throw failedToPrepare(`Failed to serialize prepared transaction: ${error.message}`);
    }
    throw error;
  }
  const trace = request.verboseHashing ? [] : undefined;
  const hash = preparedTransactionHashV2(prepared, trace);
  const bytes = PreparedTransaction.toBinary(prepared);
  return {
    preparedTransaction: Buffer.from(bytes).toString('base64'),
    preparedTransactionHash: hash.toString('base64'),
    hashingSchemeVersion: HASHING_SCHEME_VERSION_V2,
    ...(trace ? { hashingDetails: trace.join('\n') } : {}),
    ...(!state.trafficCost || request.costEstimation.disabled
      ? {}
      : {
          costEstimation: estimateTrafficCost(
            bytes.length,
            request.costEstimation.expectedSignatures.length > 0
              ? request.costEstimation.expectedSignatures
              : expectedSignatures(state, request.actAs),
          ),
        }),
  };
}

/** An interpreted transaction as a prepared transaction (its metadata as prepare fills it in). */
function encodePrepared(
  state: LedgerState,
  interpreted: InterpretedTransaction,
  codec: ValueCodec,
  fields: Pick<PrepareRequest, 'actAs' | 'commandId' | 'maxRecordTimeMicros'> & {
    synchronizerId: string;
  },
): PreparedTransaction {
  return {
    transaction: encodeDamlTransaction(interpreted, codec, () => randomBytes(32)),
    metadata: encodeMetadata({
      actAs: fields.actAs,
      commandId: fields.commandId,
      synchronizerId: fields.synchronizerId,
      transactionUuid: randomUUID(),
      preparationTimeMicros: nowMicros(),
      inputContracts: inputContracts(state, interpreted, codec),
      maxRecordTimeMicros: fields.maxRecordTimeMicros,
    }),
  };
}

/**
 * The paid traffic cost of a submission the participant signs (`/v2/commands/...`): its
 * transaction measured as prepare would encode the same command (the contracts it creates under
 * their unsuffixed ids, as prepared), with no signatures of external parties, so the cost equals
 * the request part of prepare's estimate for that command. Undefined when traffic cost is off.
 */
export function submissionTrafficCost(
  state: LedgerState,
  request: { actAs: readonly string[]; commandId: string },
): ((interpreted: InterpretedTransaction, synchronizerId: string) => bigint) | undefined {
  if (!state.trafficCost) return undefined;
  return (interpreted, synchronizerId) => {
    const created = new Set(
      interpreted.nodes.flatMap((node) => (node.kind === 'create' ? [node.contractId] : [])),
    );
    const codec = codecFor(state, (id) => (created.has(id) ? unsuffixed(id) : id));
    const prepared = encodePrepared(state, interpreted, codec, {
      actAs: [...request.actAs],
      commandId: request.commandId,
      synchronizerId,
      maxRecordTimeMicros: null,
    });
    return confirmationRequestCost(PreparedTransaction.toBinary(prepared).length, []);
  };
}

/** A suffixed contract id as its transaction created it: `00` and the 32-byte discriminator. */
const unsuffixed = (contractId: string) => contractId.slice(0, 66);

function inputContracts(
  state: LedgerState,
  interpreted: InterpretedTransaction,
  codec: ValueCodec,
): Metadata_InputContract[] {
  return [...(interpreted.trace?.inputs.values() ?? [])].map((node) => {
    // Disclosed contracts were authenticated against the store, so every input is there.
    const createdAt = state.history.contract(node.contractId)?.createdAt ?? formatMicros(0n);
    return encodeInputContract(node, createdAt, isoToMicros(createdAt), codec);
  });
}

/**
 * CostEstimationHints without expected signatures: threshold-many signatures of each submitting
 * external party, with its keys in the order they are registered.
 */
function expectedSignatures(state: LedgerState, actAs: readonly string[]): string[] {
  return actAs.flatMap((party) => {
    const signing = state.parties.signingKeys(party);
    if (!signing) return [];
    return signing.keys
      .slice(0, signing.threshold)
      .map((key) =>
        key.spec === 'SIGNING_KEY_SPEC_EC_CURVE25519'
          ? 'SIGNING_ALGORITHM_SPEC_ED25519'
          : 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
      );
  });
}

// ── Execute ──

export type ExecuteRequest = {
  preparedTransaction: PreparedTransaction;
  /** The signatures of each party, the request's entries for one party merged. */
  signatures: ReadonlyMap<string, readonly WireSignature[]>;
  userId: string;
  submissionId: string;
  deduplication: Deduplication;
  hashingSchemeVersion: string;
  /** The execute request's min ledger time, if any. */
  minLedgerTimeMicros: bigint | null;
  traceparent: string;
};

/** The structure of a prepared transaction, checked as Canton's PreparedTransactionDecoder does. */
type Decoded = {
  transaction: DamlTransaction;
  actAs: string[];
  commandId: string;
  root: DamlTransaction_Node;
  /** Node ids in pre-order from the root, the order a re-run assigns its node ids in. */
  preorder: string[];
  createdContractIds: string[];
  inputs: Map<string, Metadata_InputContract>;
};

const NODE_ID = /^(?:0|[1-9]\d{0,8})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const missingField = (field: string) =>
  new SandboxError(
    'MISSING_FIELD',
    `The submitted command is missing a mandatory field: ${field}`,
    {
      context: { field_name: field },
    },
  );

/** Canton's message for a node version hashing scheme V2 cannot hash, or an unknown one. */
function serializationVersionProblem(version: string): string | undefined {
  if (version === LF_SERIALIZATION_VERSION) return undefined;
  if (version === '2' || version === 'dev') {
    const name = version === '2' ? 'V2' : 'VDev';
    const hint = version === '2' ? ' Does the transaction use contract keys?' : '';
    return `Cannot hash node with LF serialization version ${name} using hashing scheme V2.${hint} Please use hashing scheme ${version === '2' ? 'V3' : 'V4'} or higher.`;
  }
  return `Failed to deserialize transaction: Unsupported serialization version '${version}'`;
}

function decode(prepared: PreparedTransaction): Decoded {
  const { transaction, metadata } = prepared;
  // enforceSingleRootNode is checked before anything else is decoded.
  if (transaction && transaction.roots.length !== 1) {
    throw failedToExecute('Transaction with multiple root nodes are not supported');
  }
  if (!metadata) throw missingField('metadata');
  const submitterInfo = metadata.submitterInfo;
  if (!submitterInfo) throw missingField('submitter_info');
  if (!UUID.test(metadata.transactionUuid)) {
    throw failedToExecute(
      `Failed to deserialize transaction UUID: Invalid UUID string: ${metadata.transactionUuid}`,
    );
  }
  if (ledgerStringProblem(submitterInfo.commandId) || submitterInfo.commandId === '') {
    throw failedToExecute(
      `Failed to deserialize submitter info: Invalid command id "${submitterInfo.commandId}"`,
    );
  }
  for (const party of submitterInfo.actAs) {
    const problem = partyProblem(party);
    if (problem) throw failedToExecute(`Failed to deserialize submitter info: ${problem}`);
  }
  if (!transaction) throw missingField('transaction');
  const deserialize = (problem: string) =>
    failedToExecute(`Failed to deserialize transaction: ${problem}`);
  const nodes = new Map<string, DamlTransaction_Node>();
  for (const node of transaction.nodes) {
    if (!NODE_ID.test(node.nodeId)) throw deserialize(`Invalid node id ${node.nodeId}`);
    if (nodes.has(node.nodeId)) throw deserialize(`Duplicate node id ${node.nodeId}`);
    nodes.set(node.nodeId, node);
    if (node.versionedNode.oneofKind !== 'v1') throw deserialize('Unsupported node version');
    const kind = node.versionedNode.v1.nodeType;
    if (kind.oneofKind === undefined) throw deserialize(`Node ${node.nodeId} has no node type`);
    if (kind.oneofKind === 'rollback') continue;
    const body =
      kind.oneofKind === 'create'
        ? kind.create
        : kind.oneofKind === 'exercise'
          ? kind.exercise
          : kind.fetch;
    const versionProblem = serializationVersionProblem(body.lfVersion);
    if (versionProblem) throw failedToExecute(versionProblem);
    if (!isWellFormedContractId(body.contractId)) {
      throw deserialize(`cannot parse ContractId "${body.contractId}"`);
    }
    if (!body.templateId) throw deserialize(`Node ${node.nodeId} has no template id`);
  }
  const version = serializationVersionProblem(transaction.version);
  if (version) throw failedToExecute(version);
  // Pre-order from the root; a node reached twice (or never) is not a tree.
  const preorder: string[] = [];
  const seen = new Set<string>();
  const visit = (nodeId: string, depth: number) => {
    const node = nodes.get(nodeId);
    if (node?.versionedNode.oneofKind !== 'v1') {
      throw failedToExecute(`The transaction does not contain a node with nodeId ${nodeId}`);
    }
    if (seen.has(nodeId) || depth > 1000) throw deserialize('The nodes do not form a tree');
    seen.add(nodeId);
    preorder.push(nodeId);
    const kind = node.versionedNode.v1.nodeType;
    const children =
      kind.oneofKind === 'exercise'
        ? kind.exercise.children
        : kind.oneofKind === 'rollback'
          ? kind.rollback.children
          : [];
    for (const child of children) visit(child, depth + 1);
  };
  const [rootId = ''] = transaction.roots;
  visit(rootId, 0);
  const created = new Set<string>();
  const used = new Set<string>();
  const createdContractIds: string[] = [];
  for (const nodeId of preorder) {
    const node = nodes.get(nodeId);
    if (node?.versionedNode.oneofKind !== 'v1') continue;
    const kind = node.versionedNode.v1.nodeType;
    if (kind.oneofKind === 'create') {
      created.add(kind.create.contractId);
      createdContractIds.push(kind.create.contractId);
    } else if (kind.oneofKind === 'exercise' || kind.oneofKind === 'fetch') {
      const target = kind.oneofKind === 'exercise' ? kind.exercise : kind.fetch;
      if (!created.has(target.contractId)) used.add(target.contractId);
    }
  }
  const inputs = new Map<string, Metadata_InputContract>();
  for (const input of metadata.inputContracts) {
    if (input.contract.oneofKind !== 'v1') {
      throw failedToExecute('Failed to deserialize input contracts: unsupported contract version');
    }
    inputs.set(contractIdOf(input), input);
  }
  const mismatch = (label: string, ids: string[]) =>
    failedToExecute(
      `Provided input contracts do not match the input contracts in the transaction: ${label} input contracts: ${ids.sort().join(',')}`,
    );
  const missing = [...used].filter((id) => !inputs.has(id));
  if (missing.length > 0) throw mismatch('Missing', missing);
  const superfluous = [...inputs.keys()].filter((id) => !used.has(id));
  if (superfluous.length > 0) throw mismatch('Superfluous', superfluous);
  const root = nodes.get(rootId);
  if (!root) throw failedToExecute(`The transaction does not contain a node with nodeId ${rootId}`);
  return {
    transaction,
    actAs: [...new Set(submitterInfo.actAs)].sort(),
    commandId: submitterInfo.commandId,
    root,
    preorder,
    createdContractIds,
    inputs,
  };
}

/**
 * The synchronizer a prepared transaction names: on protocol version 34 the logical id of a
 * connected synchronizer (ExternalTransactionProcessor, EnrichedTransactionData.verifySignature).
 */
function checkSynchronizer(state: LedgerState, synchronizerId: string) {
  const parts = synchronizerId.split('::');
  const logical = parts.slice(0, 2).join('::');
  if (parts.length === 3 && state.synchronizerIds.includes(logical)) {
    throw failedToExecute(
      `The selected synchronizer ${synchronizerId} is on Protocol Version ${String(SANDBOX_PROTOCOL_VERSION)}. Please use a Logical Synchronizer ID in the prepared transaction metadata on PVs <= 34`,
    );
  }
  if (!state.synchronizerIds.includes(synchronizerId)) {
    throw failedToExecute(
      `Cannot find a physical synchronizer for ${synchronizerId}. Make sure the participant is connected to the synchronizer.`,
    );
  }
}

/**
 * InteractiveSubmission.verifySignatures: every acting party signed, with threshold-many valid
 * signatures from distinct keys of its own; the first failure is the error.
 */
function verifySignatures(
  state: LedgerState,
  hash: Buffer,
  signatures: ReadonlyMap<string, readonly WireSignature[]>,
  actAs: readonly string[],
) {
  const unsigned = actAs.filter((party) => !signatures.has(party));
  if (unsigned.length > 0) {
    throw failedToExecute(
      `The following actAs parties did not provide an external signature: ${unsigned.join(', ')}`,
    );
  }
  // Signatures of parties that do not act are discarded, as Canton does.
  for (const party of actAs) {
    const given = signatures.get(party) ?? [];
    const signing = state.parties.signingKeys(party);
    if (!signing) throw failedToExecute(`Could not find party signing keys for ${party}.`);
    const valid = new Set<string>();
    let invalid = 0;
    for (const signature of given) {
      const key = signing.keys.find((candidate) => candidate.fingerprint === signature.signedBy);
      if (key && verifySignature(key, signature, hash)) valid.add(key.fingerprint);
      else invalid++;
    }
    if (valid.size < signing.threshold) {
      throw failedToExecute(
        `Received ${String(valid.size)} valid signatures from distinct keys (${String(invalid)} invalid), but expected at least ${String(signing.threshold)} valid for ${party}. Transaction hash to be signed: 1220${hash.toString('hex')}. Ensure the correct transaction hash is signed with the correct key(s).`,
      );
    }
  }
}

/**
 * The input contracts as the store knows them. On a participant a contract id authenticates the
 * contract's content; here every genuine contract is in the store, so an input must be exactly
 * the stored contract: same create node, creation time and created-event blob.
 */
function authenticatedInputs(
  state: LedgerState,
  inputs: ReadonlyMap<string, Metadata_InputContract>,
): Map<string, CreateNode> {
  const codec = codecFor(state);
  const out = new Map<string, CreateNode>();
  for (const [contractId, input] of inputs) {
    const stored = state.history.contract(contractId);
    const expected =
      stored &&
      encodeInputContract(stored.node, stored.createdAt, isoToMicros(stored.createdAt), codec);
    const genuine =
      expected !== undefined &&
      input.contract.oneofKind === 'v1' &&
      expected.contract.oneofKind === 'v1' &&
      input.createdAt === expected.createdAt &&
      Buffer.from(input.eventBlob).equals(Buffer.from(expected.eventBlob)) &&
      createNodeHash(input.contract.v1).equals(createNodeHash(expected.contract.v1));
    if (!genuine || !stored) {
      throw new SandboxError(
        'LOCAL_VERDICT_FAILED_MODEL_CONFORMANCE_CHECK',
        `Rejected transaction due to a failed model conformance check: input contract ${contractId} failed authentication`,
      );
    }
    out.set(contractId, stored.node);
  }
  return out;
}

const idOf = (identifier: Identifier | undefined) => {
  if (!identifier) throw new Error('a node has no template id');
  return identifierToId(identifier);
};

/** The prepared root as the command a re-run starts from. */
function rootCommand(state: LedgerState, root: DamlTransaction_Node): Command {
  if (root.versionedNode.oneofKind !== 'v1') throw new Error('unsupported root node');
  const kind = root.versionedNode.v1.nodeType;
  const codec = codecFor(state);
  if (kind.oneofKind === 'create') {
    const templateId = idOf(kind.create.templateId);
    const template = state.templates.resolve(templateId);
    const type: DamlType = { kind: 'con', tycon: template.signature.tycon, args: [] };
    return {
      kind: 'create',
      template,
      argument: fromProtoValue(type, kind.create.argument, codec),
    };
  }
  if (kind.oneofKind === 'exercise') {
    const exercise = kind.exercise;
    const templateId = idOf(exercise.templateId);
    const interfaceId = exercise.interfaceId && identifierToId(exercise.interfaceId);
    const choice = choiceOf(templateId, interfaceId, exercise.choiceId);
    const argument = fromProtoValue(choice.argType, exercise.chosenValue, codec);
    if (interfaceId) {
      const resolved = state.templates.resolveExercised(interfaceId);
      if (resolved.kind !== 'interface') throw new Error(`${interfaceId} is not an interface`);
      return {
        kind: 'exerciseInterface',
        iface: resolved.iface,
        contractId: exercise.contractId,
        choice: exercise.choiceId,
        argument,
      };
    }
    return {
      kind: 'exercise',
      template: state.templates.resolve(templateId),
      contractId: exercise.contractId,
      choice: exercise.choiceId,
      argument,
    };
  }
  throw new Error(`a ${kind.oneofKind ?? 'empty'} root node is not a command`);
}

/**
 * Executes a prepared transaction: decodes it, recomputes its hash from what was received,
 * verifies the acting parties' signatures over that hash, then has the ledger re-run its root
 * against the current ledger, compare the result with what was signed and commit it.
 */
export function executeSubmission(state: LedgerState, request: ExecuteRequest): TransactionRecord {
  if ([...request.signatures.values()].some((given) => given.length > MAX_SIGNATURES_PER_PARTY)) {
    throw failedToExecute(
      `One or more parties provided more than the maximum number of signatures allowed (${String(MAX_SIGNATURES_PER_PARTY)})`,
    );
  }
  const prepared = request.preparedTransaction;
  const decoded = decode(prepared);
  const metadata = prepared.metadata;
  if (!metadata) throw missingField('metadata');
  checkSynchronizer(state, metadata.synchronizerId);
  const unsupported = unsupportedScheme(request.hashingSchemeVersion);
  if (unsupported) throw failedToExecute(unsupported);
  let hash: Buffer;
  try {
    hash = preparedTransactionHashV2(prepared);
  } catch (error) {
    if (error instanceof HashingError) throw failedToExecute(error.message);
    throw error;
  }
  verifySignatures(state, hash, request.signatures, decoded.actAs);
  const inputs = authenticatedInputs(state, decoded.inputs);
  const receivedHash = transactionHashV2(decoded.transaction);
  const seeds = new Map(
    decoded.transaction.nodeSeeds.map((s) => [String(s.nodeId), s.seed] as const),
  );
  return state.ledger.executePrepared({
    commands: () => [rootCommand(state, decoded.root)],
    synchronizerId: metadata.synchronizerId,
    actAs: decoded.actAs,
    userId: request.userId,
    commandId: decoded.commandId,
    submissionId: request.submissionId,
    deduplication: request.deduplication,
    traceparent: request.traceparent,
    inputs,
    createdContractIds: decoded.createdContractIds,
    requestedLedgerTimeMicros: request.minLedgerTimeMicros,
    minLedgerEffectiveTimeMicros: metadata.minLedgerEffectiveTime ?? null,
    maxLedgerEffectiveTimeMicros: metadata.maxLedgerEffectiveTime ?? null,
    preparationTimeMicros: metadata.preparationTime,
    maxRecordTimeMicros: metadata.maxRecordTime ?? null,
    ...(state.trafficCost
      ? {
          paidTrafficCost: confirmationRequestCost(
            PreparedTransaction.toBinary(prepared).length,
            [...request.signatures.values()].flatMap((given) =>
              given.map((signature) => signature.signingAlgorithmSpec),
            ),
          ),
        }
      : {}),
    conform: (interpreted, preparedId) => {
      const usedInputs = [...(interpreted.trace?.inputs.keys() ?? [])].sort();
      if (usedInputs.join() !== [...inputs.keys()].sort().join()) {
        throw new Error('the transaction uses other input contracts than prepared');
      }
      const rerun = encodeDamlTransaction(
        interpreted,
        codecFor(state, preparedId),
        (position) => seeds.get(decoded.preorder[position] ?? '') ?? Buffer.alloc(0),
      );
      if (!transactionHashV2(rerun).equals(receivedHash)) {
        throw new Error('the transaction differs from its re-interpretation');
      }
    },
    externalTransactionHash: hash.toString('hex'),
  });
}
