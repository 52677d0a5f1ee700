import type {
  Create,
  DamlTransaction,
  DamlTransaction_Node,
  Exercise,
  Fetch,
  Metadata,
  Metadata_InputContract,
} from '@canton-network/core-ledger-proto';
import type { Choice, DamlType } from '@ledger-console/participant/daml-lf/package-model';
import { DEMO_SIGNATURES } from '../demo-package';
import type {
  FetchTrace,
  InterpretationTrace,
  InterpretedTransaction,
  LookupTrace,
} from '../interpreter';
import { encodeCreatedEventBlob } from '../projection';
import type { CreateNode, ExerciseNode } from '../transaction';
import { identifierFromId, toProtoValue, type ValueCodec } from './proto-value';

/**
 * The sandbox's interpreted transactions as Canton's `PreparedTransaction` protobuf (the
 * `interactive_submission_service.proto` v1 nodes): every node of the Daml transaction, hidden
 * fetches included, with values enriched through the built-in package's Daml-LF signatures.
 */

/**
 * Canton's serialization version of LF 2.1 nodes ("2.1": `SerializationVersion.V1`), the only one
 * hashing scheme V2 can hash. The demo package is an LF 2.1 package; its contract key (Account)
 * is a sandbox liberty that LF 2.1 does not have, so no node carries a key.
 */
export const LF_SERIALIZATION_VERSION = '2.1';

/** A transaction the encoder refuses; the message is Canton's where it has one. */
export class EncodingError extends Error {
  override readonly name = 'EncodingError';
}

const qualifiedNameOf = (id: string) => id.slice(id.indexOf(':') + 1);

const sorted = (parties: readonly string[]) => [...new Set(parties)].sort();

const templateType = (templateId: string): DamlType => {
  const template = DEMO_SIGNATURES.template(qualifiedNameOf(templateId));
  if (!template) throw new EncodingError(`Unknown template ${templateId}`);
  return { kind: 'con', tycon: template.tycon, args: [] };
};

/** The choice an exercise node ran: the interface's when exercised through one. */
export function choiceOf(
  templateId: string,
  interfaceId: string | undefined,
  choiceName: string,
): Choice {
  const choices =
    interfaceId === undefined
      ? DEMO_SIGNATURES.template(qualifiedNameOf(templateId))?.choices
      : DEMO_SIGNATURES.iface(qualifiedNameOf(interfaceId))?.choices;
  const choice = choices?.find((c) => c.name === choiceName);
  if (!choice)
    throw new EncodingError(`Unknown choice ${choiceName} of ${interfaceId ?? templateId}`);
  return choice;
}

export function encodeCreate(node: CreateNode, codec: ValueCodec): Create {
  return {
    lfVersion: LF_SERIALIZATION_VERSION,
    contractId: codec.contractId ? codec.contractId(node.contractId) : node.contractId,
    packageName: node.packageName,
    templateId: identifierFromId(node.templateId),
    argument: toProtoValue(templateType(node.templateId), node.argument, codec),
    signatories: sorted(node.signatories),
    stakeholders: sorted([...node.signatories, ...node.observers]),
  };
}

function encodeExercise(
  node: ExerciseNode,
  signatories: readonly string[],
  children: string[],
  codec: ValueCodec,
): Exercise {
  const choice = choiceOf(node.templateId, node.interfaceId, node.choice);
  return {
    lfVersion: LF_SERIALIZATION_VERSION,
    contractId: codec.contractId ? codec.contractId(node.contractId) : node.contractId,
    packageName: node.packageName,
    templateId: identifierFromId(node.templateId),
    signatories: sorted(signatories),
    stakeholders: sorted(node.stakeholders),
    actingParties: sorted(node.actingParties),
    ...(node.interfaceId === undefined ? {} : { interfaceId: identifierFromId(node.interfaceId) }),
    choiceId: node.choice,
    chosenValue: toProtoValue(choice.argType, node.choiceArgument, codec),
    consuming: node.consuming,
    children,
    exerciseResult: toProtoValue(choice.returnType, node.exerciseResult, codec),
    choiceObservers: [],
  };
}

function encodeFetch(fetch: FetchTrace, codec: ValueCodec): Fetch {
  const { contract } = fetch;
  return {
    lfVersion: LF_SERIALIZATION_VERSION,
    contractId: codec.contractId ? codec.contractId(contract.contractId) : contract.contractId,
    packageName: contract.packageName,
    templateId: identifierFromId(contract.templateId),
    signatories: sorted(contract.signatories),
    stakeholders: sorted([...contract.signatories, ...contract.observers]),
    actingParties: sorted(fetch.actingParties),
  };
}

type TraceNode =
  | { kind: 'create'; nodeId: number; node: CreateNode }
  | { kind: 'exercise'; nodeId: number; node: ExerciseNode }
  | FetchTrace
  | LookupTrace;

/** Every node of the transaction, emitted or not, in node-id (pre-order execution) order. */
export function allNodes(interpreted: InterpretedTransaction, trace: InterpretationTrace) {
  const nodes: TraceNode[] = [
    ...interpreted.nodes.map((node) =>
      node.kind === 'create'
        ? { kind: 'create' as const, nodeId: node.nodeId, node }
        : { kind: 'exercise' as const, nodeId: node.nodeId, node },
    ),
    ...trace.hidden,
  ];
  return nodes.sort((a, b) => a.nodeId - b.nodeId);
}

/**
 * The transaction as a `DamlTransaction`: roots and each exercise's direct children from the
 * node-id ranges (an exercise's descendants are the ids up to its last descendant), a seed for
 * every create and exercise from `seedOf` (given the node's pre-order position).
 */
export function encodeDamlTransaction(
  interpreted: InterpretedTransaction,
  codec: ValueCodec,
  seedOf: (position: number) => Uint8Array,
): DamlTransaction {
  const { trace } = interpreted;
  if (!trace) throw new EncodingError('The transaction was interpreted without a trace');
  const ordered = allNodes(interpreted, trace);
  const roots: string[] = [];
  const childrenOf = new Map<number, string[]>();
  const open: { last: number; children: string[] }[] = [];
  for (const entry of ordered) {
    while ((open.at(-1)?.last ?? Infinity) < entry.nodeId) open.pop();
    (open.at(-1)?.children ?? roots).push(String(entry.nodeId));
    if (entry.kind === 'exercise') {
      const children: string[] = [];
      childrenOf.set(entry.nodeId, children);
      open.push({ last: entry.node.lastDescendantNodeId, children });
    }
  }
  const nodes: DamlTransaction_Node[] = [];
  const nodeSeeds: DamlTransaction['nodeSeeds'] = [];
  ordered.forEach((entry, position) => {
    const nodeId = String(entry.nodeId);
    switch (entry.kind) {
      case 'create':
        nodeSeeds.push({ nodeId: entry.nodeId, seed: seedOf(position) });
        nodes.push(v1(nodeId, { oneofKind: 'create', create: encodeCreate(entry.node, codec) }));
        break;
      case 'exercise': {
        nodeSeeds.push({ nodeId: entry.nodeId, seed: seedOf(position) });
        const signatories = trace.exercisedSignatories.get(entry.nodeId) ?? [];
        const children = childrenOf.get(entry.nodeId) ?? [];
        nodes.push(
          v1(nodeId, {
            oneofKind: 'exercise',
            exercise: encodeExercise(entry.node, signatories, children, codec),
          }),
        );
        break;
      }
      case 'fetch':
        nodes.push(v1(nodeId, { oneofKind: 'fetch', fetch: encodeFetch(entry, codec) }));
        break;
      case 'lookupByKey':
        throw new EncodingError(
          `LookupByKey node is not supported in nodes with LF serialization version ${LF_SERIALIZATION_VERSION}`,
        );
    }
  });
  return { version: LF_SERIALIZATION_VERSION, roots, nodes, nodeSeeds };
}

type NodeType = Extract<
  DamlTransaction_Node['versionedNode'],
  { oneofKind: 'v1' }
>['v1']['nodeType'];

const v1 = (nodeId: string, nodeType: NodeType): DamlTransaction_Node => ({
  nodeId,
  versionedNode: { oneofKind: 'v1', v1: { nodeType } },
});

/** An input contract: its create node, creation time and created-event blob. */
export function encodeInputContract(
  node: CreateNode,
  createdAt: string,
  createdAtMicros: bigint,
  codec: ValueCodec,
): Metadata_InputContract {
  return {
    contract: { oneofKind: 'v1', v1: encodeCreate(node, codec) },
    createdAt: createdAtMicros,
    eventBlob: Buffer.from(encodeCreatedEventBlob(node, createdAt), 'base64'),
  };
}

export type MetadataFields = {
  actAs: readonly string[];
  commandId: string;
  synchronizerId: string;
  transactionUuid: string;
  preparationTimeMicros: bigint;
  inputContracts: Metadata_InputContract[];
  maxRecordTimeMicros: bigint | null;
};

/**
 * The metadata as Canton's encoder fills it: act-as and input contracts pre-sorted for the
 * hasher, mediator group 0, no ledger-time bounds (the demo package never reads the time, so the
 * engine leaves them unconstrained) and the deprecated key mapping empty.
 */
export function encodeMetadata(fields: MetadataFields): Metadata {
  return {
    submitterInfo: { actAs: sorted(fields.actAs), commandId: fields.commandId },
    synchronizerId: fields.synchronizerId,
    mediatorGroup: 0,
    transactionUuid: fields.transactionUuid,
    preparationTime: fields.preparationTimeMicros,
    inputContracts: [...fields.inputContracts].sort((a, b) =>
      contractIdOf(a) < contractIdOf(b) ? -1 : 1,
    ),
    globalKeyMapping: [],
    ...(fields.maxRecordTimeMicros === null ? {} : { maxRecordTime: fields.maxRecordTimeMicros }),
  };
}

export const contractIdOf = (input: Metadata_InputContract) =>
  input.contract.oneofKind === 'v1' ? input.contract.v1.contractId : '';
