import { createHash } from 'node:crypto';
import type {
  DamlType,
  Interface,
  Template,
} from '@ledger-console/participant/daml-lf/package-model';
import { SandboxError } from '../errors/sandbox-error';
import type { ContractRecord } from '../store/ledger-store';
import { checkValue } from './daml-value';
import {
  ARCHIVE_CHOICE,
  DEMO_BEHAVIOUR,
  DEMO_SIGNATURES,
  type ChoiceBehaviour,
  type InterfaceBehaviour,
  type Record_,
  type TemplateBehaviour,
  type UpdateContext,
} from './demo-package';
import {
  newContractId,
  type CreateNode,
  type ExerciseNode,
  type JsonValue,
  type LedgerNode,
} from './transaction';

/** A template of the built-in package, resolved from a command's template id. */
export type ExecutableTemplate = {
  /** `Module:Entity`, the key into the demo behaviour table. */
  qualifiedName: string;
  signature: Template;
  behaviour: TemplateBehaviour;
};

/** An interface of the built-in package, resolved from an exercise command's template id. */
export type ExecutableInterface = {
  qualifiedName: string;
  signature: Interface;
  behaviour: InterfaceBehaviour;
};

export type Command =
  | { kind: 'create'; template: ExecutableTemplate; argument: unknown }
  | {
      /** An ExerciseCommand whose `templateId` names an interface (§7.1). */
      kind: 'exerciseInterface';
      iface: ExecutableInterface;
      contractId: string;
      choice: string;
      argument: unknown;
    }
  | {
      kind: 'exercise';
      template: ExecutableTemplate;
      contractId: string;
      choice: string;
      argument: unknown;
    }
  | {
      kind: 'createAndExercise';
      template: ExecutableTemplate;
      createArgument: unknown;
      choice: string;
      choiceArgument: unknown;
    }
  | {
      kind: 'exerciseByKey';
      template: ExecutableTemplate;
      key: unknown;
      choice: string;
      argument: unknown;
    };

/** What the interpreter may read of the ledger. */
export type LedgerView = {
  contract(contractId: string): ContractRecord | undefined;
  activeContractIdByKey(keyHash: string): string | undefined;
};

export type Submission = {
  actAs: readonly string[];
  readAs: readonly string[];
  /** Contracts the submitter brought along, usable whoever their stakeholders are. */
  disclosed: ReadonlyMap<string, CreateNode>;
};

/** A fetch node: never emitted by the Ledger API, but part of the Daml transaction. */
export type FetchTrace = {
  kind: 'fetch';
  nodeId: number;
  contract: CreateNode;
  /** The fetch's authorizers that are stakeholders of the contract (Daml's acting parties). */
  actingParties: string[];
  byKey: boolean;
};

/** A `lookupByKey` node: never emitted, and not expressible in a prepared transaction. */
export type LookupTrace = { kind: 'lookupByKey'; nodeId: number; templateId: string };

/**
 * What a prepared transaction shows beyond the emitted nodes, recorded only when asked for:
 * the hidden nodes, the signatories behind each exercise, and the contracts the transaction read
 * from before it (its input contracts).
 */
export type InterpretationTrace = {
  hidden: (FetchTrace | LookupTrace)[];
  /** Signatories of the contract each exercise node acts on, by the exercise's node id. */
  exercisedSignatories: Map<number, string[]>;
  inputs: Map<string, CreateNode>;
};

export type InterpretedTransaction = {
  nodes: LedgerNode[];
  /** Contracts from before the transaction it used (fetched, exercised or found by key). */
  inputContracts: string[];
  trace?: InterpretationTrace;
};

export type InterpretOptions = {
  /** The id of each new contract, in creation order; Canton's suffixed V1 ids when absent. */
  newContractId?: () => string;
  /** Records an InterpretationTrace. */
  trace?: boolean;
};

export type DemoPackageInfo = { packageId: string; packageName: string };

const unique = (values: Iterable<string>) => [...new Set(values)].sort();

const resolve = DEMO_SIGNATURES.dataType;

/** Hash of a contract key, scoped by package name and template as Daml scopes keys. */
export function keyHashOf(packageName: string, qualifiedName: string, key: JsonValue): string {
  return createHash('sha256')
    .update(`${packageName}:${qualifiedName}\n${canonicalJson(key)}`)
    .digest('hex');
}

function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] ?? null)}`).join(',')}}`;
}

const interpretationError = (
  code: ConstructorParameters<typeof SandboxError>[0],
  message: string,
  resources: [string, string][] = [],
) => new SandboxError(code, `Interpretation error: Error: ${message}`, { resources });

/** One interpretation in progress: what it read, what it wrote so far, the next node id. */
type Interpretation = {
  submission: Submission;
  view: LedgerView;
  demo: DemoPackageInfo;
  /** actAs ∪ readAs: who may see a contract used by the transaction. */
  readers: ReadonlySet<string>;
  nodes: LedgerNode[];
  nextNodeId: number;
  /** Contracts this transaction created, still active unless in `archivedHere`. */
  local: Map<string, CreateNode>;
  /** Keys this transaction created (their contract id) or consumed (null). */
  localKeyHashes: Map<string, string | null>;
  archivedHere: Set<string>;
  inputContracts: Set<string>;
  newContractId: () => string;
  trace: InterpretationTrace | undefined;
};

/**
 * Runs commands of the built-in package with Daml's semantics: authorization (signatories must
 * authorize creates, controllers exercises), visibility to actAs ∪ readAs, consuming choices,
 * contract keys, `ensure`, and node ids in pre-order execution order, hidden fetches and lookups
 * included (ledger-api-behaviour.md §7.3). Nothing is written: the caller commits the result.
 */
export function interpret(
  commands: readonly Command[],
  submission: Submission,
  view: LedgerView,
  demo: DemoPackageInfo,
  options: InterpretOptions = {},
): InterpretedTransaction {
  const run: Interpretation = {
    submission,
    view,
    demo,
    readers: new Set([...submission.actAs, ...submission.readAs]),
    nodes: [],
    nextNodeId: 0,
    local: new Map(),
    localKeyHashes: new Map(),
    archivedHere: new Set(),
    inputContracts: new Set(),
    newContractId: options.newContractId ?? newContractId,
    trace: options.trace
      ? { hidden: [], exercisedSignatories: new Map(), inputs: new Map() }
      : undefined,
  };
  const rootAuthorizers = new Set(submission.actAs);
  commands.forEach((command, i) => {
    runCommand(run, command, `commands[${String(i)}]`, rootAuthorizers);
  });
  const inputContracts = [...run.inputContracts];
  return run.trace
    ? { nodes: run.nodes, inputContracts, trace: run.trace }
    : { nodes: run.nodes, inputContracts };
}

const NO_WITNESSES: ReadonlySet<string> = new Set();

function runCommand(
  run: Interpretation,
  command: Command,
  at: string,
  authorizers: ReadonlySet<string>,
) {
  if (command.kind === 'exerciseInterface') {
    exerciseInterface(
      run,
      command.contractId,
      command.iface,
      command.choice,
      command.argument,
      authorizers,
      `${at}.choiceArgument`,
    );
    return;
  }
  const name = command.template.qualifiedName;
  const exerciseAt = (contractId: string, choice: string, argument: unknown) =>
    exercise(
      run,
      contractId,
      name,
      choice,
      argument,
      authorizers,
      NO_WITNESSES,
      `${at}.choiceArgument`,
    );
  switch (command.kind) {
    case 'create':
      create(run, name, command.argument, authorizers, NO_WITNESSES, `${at}.createArguments`);
      break;
    case 'exercise':
      exerciseAt(command.contractId, command.choice, command.argument);
      break;
    case 'createAndExercise': {
      choiceSignature(run, name, command.choice);
      const created = create(
        run,
        name,
        command.createArgument,
        authorizers,
        NO_WITNESSES,
        `${at}.createArguments`,
      );
      exerciseAt(created, command.choice, command.choiceArgument);
      break;
    }
    case 'exerciseByKey': {
      choiceSignature(run, name, command.choice);
      const key = checkKey(command.template.signature, command.key, `${at}.contractKey`);
      const contractId = lookupKey(run, name, key);
      if (contractId === undefined) throw keyNotFound(run, name, key);
      exerciseAt(contractId, command.choice, command.argument);
      break;
    }
  }
}

// ── Nodes, one function per kind ──

function create(
  run: Interpretation,
  qualifiedName: string,
  rawArgument: unknown,
  authorizers: ReadonlySet<string>,
  parentWitnesses: ReadonlySet<string>,
  path: string,
): string {
  const { demo } = run;
  const { template, behaviour } = behaviourOf(qualifiedName);
  const argument = checkValue(
    { kind: 'con', tycon: template.tycon, args: [] },
    rawArgument,
    resolve,
    path,
  ) as Record_;
  const nodeId = run.nextNodeId++;
  if (behaviour.ensure && !behaviour.ensure(argument)) {
    throw interpretationError(
      'TEMPLATE_PRECONDITION_VIOLATED',
      `Template precondition violated: ${templateIdOf(run, qualifiedName)}`,
    );
  }
  const signatories = unique(behaviour.signatories(argument));
  const observers = unique(behaviour.observers(argument)).filter((p) => !signatories.includes(p));
  requireAuthorized(run, nodeId, qualifiedName, signatories, authorizers);
  let key: JsonValue | null = null;
  let keyMaintainers: string[] = [];
  let keyHash: string | null = null;
  if (behaviour.key) {
    key = behaviour.key.of(argument);
    keyMaintainers = unique(behaviour.key.maintainers(key));
    keyHash = keyHashOf(demo.packageName, qualifiedName, key);
    requireKeyFree(run, qualifiedName, key, keyHash);
  }
  const contractId = run.newContractId();
  const node: CreateNode = {
    kind: 'create',
    nodeId,
    contractId,
    templateId: templateIdOf(run, qualifiedName),
    packageName: demo.packageName,
    witnesses: unique([...parentWitnesses, ...signatories, ...observers]),
    argument,
    signatories,
    observers,
    key,
    keyMaintainers,
    keyHash,
    archivedInNode: null,
  };
  run.nodes.push(node);
  run.local.set(contractId, node);
  if (keyHash !== null) run.localKeyHashes.set(keyHash, contractId);
  return contractId;
}

/** Keys are unique among all active contracts, whoever may see them. */
function requireKeyFree(run: Interpretation, qualifiedName: string, key: JsonValue, hash: string) {
  const stored = run.view.activeContractIdByKey(hash);
  const taken = run.localKeyHashes.has(hash)
    ? run.localKeyHashes.get(hash) !== null
    : stored !== undefined && !run.archivedHere.has(stored);
  if (taken) {
    throw interpretationError(
      'DUPLICATE_CONTRACT_KEY',
      `Contract key is not unique: a contract of ${templateIdOf(run, qualifiedName)} with key ${JSON.stringify(key)} is already active`,
    );
  }
}

function exercise(
  run: Interpretation,
  contractId: string,
  qualifiedName: string,
  choiceName: string,
  rawArgument: unknown,
  authorizers: ReadonlySet<string>,
  parentWitnesses: ReadonlySet<string>,
  path: string,
): JsonValue {
  const { behaviour } = behaviourOf(qualifiedName);
  const { type, consuming } = choiceSignature(run, qualifiedName, choiceName);
  const argument = checkValue(type, rawArgument, resolve, path) as Record_;
  const contract = lookup(run, contractId, qualifiedName);
  const contractArgument = contract.argument as Record_;
  const choice = choiceBehaviour(behaviour, choiceName);
  return exerciseNode(run, {
    contract,
    qualifiedName,
    choiceName,
    argument,
    consuming,
    controllers: choice.controllers(contractArgument, argument),
    interfaceId: undefined,
    authorizers,
    parentWitnesses,
    body: (context) => choice.body(context, { contractId, argument: contractArgument }, argument),
  });
}

/**
 * An exercise through an interface (Daml's `exercise @Holding cid …`): the contract may be of
 * any template implementing it, the choice and its controllers are the interface's, and the
 * body calls the template's instance. The node names both the template and the interface.
 */
function exerciseInterface(
  run: Interpretation,
  contractId: string,
  iface: ExecutableInterface,
  choiceName: string,
  rawArgument: unknown,
  authorizers: ReadonlySet<string>,
  path: string,
): JsonValue {
  const interfaceId = templateIdOf(run, iface.qualifiedName);
  const signature = iface.signature.choices.find((c) => c.name === choiceName);
  if (!signature) {
    throw new SandboxError(
      'INVALID_ARGUMENT',
      `The submitted request has invalid arguments: Invalid interface:${interfaceId} or choice:${choiceName}`,
      { origin: 'json' },
    );
  }
  const argument = checkValue(signature.argType, rawArgument, resolve, path) as Record_;
  const contract = lookup(run, contractId, undefined);
  const qualifiedName = contract.templateId.slice(contract.templateId.indexOf(':') + 1);
  const instance = iface.behaviour.instances[qualifiedName];
  if (!instance) {
    throw interpretationError(
      'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
      `Update failed due to a contract id ${contractId} of template ${contract.templateId} that does not implement interface ${interfaceId}`,
      [['CONTRACT_ID', contractId]],
    );
  }
  const contractArgument = contract.argument as Record_;
  const view = instance.view(contractArgument);
  const self = { contractId, argument: contractArgument };
  if (choiceName === ARCHIVE_CHOICE) {
    return exerciseNode(run, {
      contract,
      qualifiedName,
      choiceName,
      argument,
      consuming: true,
      controllers: behaviourOf(qualifiedName).behaviour.signatories(contractArgument),
      interfaceId,
      authorizers,
      parentWitnesses: NO_WITNESSES,
      body: () => ({}),
    });
  }
  const choice = iface.behaviour.choices[choiceName];
  if (!choice) {
    throw interpretationError('DAML_INTERPRETATION_ERROR', `choice ${choiceName} has no behaviour`);
  }
  return exerciseNode(run, {
    contract,
    qualifiedName,
    choiceName,
    argument,
    consuming: signature.consuming,
    controllers: choice.controllers(view, argument),
    interfaceId,
    authorizers,
    parentWitnesses: NO_WITNESSES,
    body: (context) =>
      choice.body(
        context,
        {
          ...self,
          view,
          call: (method, methodArgument) => {
            const implementation = instance.methods[method];
            if (!implementation) {
              throw interpretationError(
                'DAML_INTERPRETATION_ERROR',
                `method ${method} has no implementation for ${contract.templateId}`,
              );
            }
            return implementation(context, self, methodArgument);
          },
        },
        argument,
      ),
  });
}

/** The exercise node itself, whether the choice is the template's or an interface's. */
function exerciseNode(
  run: Interpretation,
  exercised: {
    contract: CreateNode;
    /** The contract's template, `Module:Entity`. */
    qualifiedName: string;
    choiceName: string;
    argument: Record_;
    consuming: boolean;
    controllers: string[];
    interfaceId: string | undefined;
    authorizers: ReadonlySet<string>;
    parentWitnesses: ReadonlySet<string>;
    body: (context: UpdateContext) => JsonValue;
  },
): JsonValue {
  const { demo } = run;
  const { contract, qualifiedName, consuming } = exercised;
  const nodeId = run.nextNodeId++;
  const controllers = unique(exercised.controllers);
  requireAuthorized(run, nodeId, qualifiedName, controllers, exercised.authorizers);
  const stakeholders = unique([...contract.signatories, ...contract.observers]);
  const informees = consuming
    ? [...stakeholders, ...controllers]
    : [...contract.signatories, ...controllers];
  const witnesses = new Set([...exercised.parentWitnesses, ...informees]);
  const node: ExerciseNode = {
    kind: 'exercise',
    nodeId,
    contractId: contract.contractId,
    templateId: templateIdOf(run, qualifiedName),
    ...(exercised.interfaceId === undefined ? {} : { interfaceId: exercised.interfaceId }),
    packageName: demo.packageName,
    witnesses: unique(witnesses),
    choice: exercised.choiceName,
    choiceArgument: exercised.argument,
    actingParties: controllers,
    consuming,
    exerciseResult: null,
    lastDescendantNodeId: nodeId,
    stakeholders,
  };
  run.nodes.push(node);
  run.trace?.exercisedSignatories.set(nodeId, contract.signatories);
  if (consuming) archive(run, contract, qualifiedName, nodeId);
  const bodyAuthorizers = new Set([...contract.signatories, ...controllers]);
  node.exerciseResult = exercised.body(contextFor(run, bodyAuthorizers, witnesses));
  node.lastDescendantNodeId = run.nextNodeId - 1;
  return node.exerciseResult;
}

function choiceBehaviour(behaviour: TemplateBehaviour, choiceName: string): ChoiceBehaviour {
  const choice: ChoiceBehaviour | undefined =
    choiceName === ARCHIVE_CHOICE
      ? {
          consuming: true,
          controllers: (c) => behaviour.signatories(c),
          body: () => ({}),
        }
      : behaviour.choices[choiceName];
  if (!choice) {
    throw interpretationError('DAML_INTERPRETATION_ERROR', `choice ${choiceName} has no behaviour`);
  }
  return choice;
}

/** Archived before the body runs, as in Daml: the body cannot use the contract any more. */
function archive(run: Interpretation, contract: CreateNode, qualifiedName: string, nodeId: number) {
  run.archivedHere.add(contract.contractId);
  const localNode = run.local.get(contract.contractId);
  if (localNode) localNode.archivedInNode = nodeId;
  if (contract.key !== null) {
    run.localKeyHashes.set(keyHashOf(run.demo.packageName, qualifiedName, contract.key), null);
  }
}

function fetchContract(
  run: Interpretation,
  contractId: string,
  qualifiedName: string,
  authorizers: ReadonlySet<string>,
): Record_ {
  const nodeId = run.nextNodeId++;
  const contract = lookup(run, contractId, qualifiedName);
  requireStakeholderAuthority(nodeId, contract, authorizers);
  traceFetch(run, nodeId, contract, authorizers, false);
  return contract.argument as Record_;
}

function traceFetch(
  run: Interpretation,
  nodeId: number,
  contract: CreateNode,
  authorizers: ReadonlySet<string>,
  byKey: boolean,
) {
  if (!run.trace) return;
  const actingParties = unique(
    [...contract.signatories, ...contract.observers].filter((party) => authorizers.has(party)),
  );
  run.trace.hidden.push({ kind: 'fetch', nodeId, contract, actingParties, byKey });
}

function fetchByKey(
  run: Interpretation,
  qualifiedName: string,
  key: unknown,
  authorizers: ReadonlySet<string>,
): { contractId: string; argument: Record_ } {
  const nodeId = run.nextNodeId++;
  const { template } = behaviourOf(qualifiedName);
  const checked = checkKey(template, key, 'key');
  const contractId = lookupKey(run, qualifiedName, checked);
  if (contractId === undefined) throw keyNotFound(run, qualifiedName, checked);
  const contract = lookup(run, contractId, qualifiedName);
  // Authorized like a fetch: one stakeholder among the authorizers (lookupByKey needs all
  // maintainers).
  requireStakeholderAuthority(nodeId, contract, authorizers);
  traceFetch(run, nodeId, contract, authorizers, true);
  return { contractId, argument: contract.argument as Record_ };
}

function lookupByKey(
  run: Interpretation,
  qualifiedName: string,
  key: unknown,
  authorizers: ReadonlySet<string>,
): string | null {
  const nodeId = run.nextNodeId++;
  const { template, behaviour } = behaviourOf(qualifiedName);
  const checked = checkKey(template, key, 'key');
  requireAuthorized(
    run,
    nodeId,
    qualifiedName,
    behaviour.key?.maintainers(checked) ?? [],
    authorizers,
  );
  const found = lookupKey(run, qualifiedName, checked) ?? null;
  if (run.trace) {
    run.trace.hidden.push({
      kind: 'lookupByKey',
      nodeId,
      templateId: templateIdOf(run, qualifiedName),
    });
    const outside = found === null || run.local.has(found) ? undefined : run.view.contract(found);
    if (found !== null && outside) run.trace.inputs.set(found, outside.node);
  }
  return found;
}

/** What a choice body may do, with the authority and witnesses of the exercise it runs in. */
function contextFor(
  run: Interpretation,
  authorizers: ReadonlySet<string>,
  witnesses: ReadonlySet<string>,
): UpdateContext {
  return {
    create: (qualifiedName, argument) =>
      create(run, qualifiedName, argument, authorizers, witnesses, ''),
    exercise: (contractId, qualifiedName, choice, argument) =>
      exercise(run, contractId, qualifiedName, choice, argument, authorizers, witnesses, ''),
    fetch: (contractId, qualifiedName) =>
      fetchContract(run, contractId, qualifiedName, authorizers),
    fetchByKey: (qualifiedName, key) => fetchByKey(run, qualifiedName, key, authorizers),
    lookupByKey: (qualifiedName, key) => lookupByKey(run, qualifiedName, key, authorizers),
    fail: (message) => {
      throw interpretationError('INTERPRETATION_USER_ERROR', `User abort: ${message}`);
    },
  };
}

// ── Contracts and keys as the submission may see them ──

/**
 * An active contract visible to the submission, from this transaction, disclosure or the store;
 * of the template `qualifiedName`, or of any template when undefined (an interface exercise).
 */
function lookup(
  run: Interpretation,
  contractId: string,
  qualifiedName: string | undefined,
): CreateNode {
  if (run.archivedHere.has(contractId)) {
    const template =
      qualifiedName === undefined
        ? (run.local.get(contractId) ?? run.view.contract(contractId)?.node)?.templateId
        : templateIdOf(run, qualifiedName);
    throw interpretationError(
      'CONTRACT_NOT_ACTIVE',
      `Update failed due to fetch of an inactive contract ${contractId} (${template ?? 'unknown template'}). The contract had been consumed in this transaction.`,
      [['CONTRACT_ID', contractId]],
    );
  }
  const node = run.local.get(contractId) ?? lookupOutside(run, contractId);
  if (qualifiedName === undefined) return node;
  if (node.templateId !== templateIdOf(run, qualifiedName)) {
    throw interpretationError(
      'DAML_INTERPRETATION_ERROR',
      `Contract ${contractId} has template ${node.templateId}, but ${templateIdOf(run, qualifiedName)} was expected`,
    );
  }
  return node;
}

/** A contract from before this transaction: stored and visible to a reader, or disclosed. */
function lookupOutside(run: Interpretation, contractId: string): CreateNode {
  const stored = run.view.contract(contractId);
  const visible = stored !== undefined && isVisible(run, stored.node);
  const disclosed = run.submission.disclosed.get(contractId);
  if ((visible || disclosed) && stored?.archivedOffset != null) {
    throw interpretationError(
      'CONTRACT_NOT_ACTIVE',
      `Update failed due to fetch of an inactive contract ${contractId} (${stored.node.templateId}).`,
      [['CONTRACT_ID', contractId]],
    );
  }
  // A contract none of the readers may see is reported like one that does not exist.
  const node = visible ? stored.node : disclosed;
  if (node) run.trace?.inputs.set(contractId, node);
  if (!node) {
    throw new SandboxError(
      'CONTRACT_NOT_FOUND',
      `Contract could not be found with id ${contractId}`,
      {
        resources: [['CONTRACT_ID', contractId]],
      },
    );
  }
  run.inputContracts.add(contractId);
  return node;
}

const isVisible = (run: Interpretation, node: CreateNode) =>
  [...node.signatories, ...node.observers].some((party) => run.readers.has(party));

function lookupKey(run: Interpretation, qualifiedName: string, key: JsonValue): string | undefined {
  const { demo, localKeyHashes, archivedHere } = run;
  const hash = keyHashOf(demo.packageName, qualifiedName, key);
  if (localKeyHashes.has(hash)) return localKeyHashes.get(hash) ?? undefined;
  const fromDisclosed = [...run.submission.disclosed.values()].find(
    (node) =>
      node.key !== null &&
      node.templateId === templateIdOf(run, qualifiedName) &&
      keyHashOf(demo.packageName, qualifiedName, node.key) === hash,
  );
  const stored = run.view.activeContractIdByKey(hash);
  if (stored !== undefined && !archivedHere.has(stored)) {
    const node = run.view.contract(stored)?.node;
    if (node && isVisible(run, node)) {
      run.inputContracts.add(stored);
      return stored;
    }
  }
  if (!fromDisclosed || archivedHere.has(fromDisclosed.contractId)) return undefined;
  run.inputContracts.add(fromDisclosed.contractId);
  return fromDisclosed.contractId;
}

// ── The package: templates, choices, keys ──

const templateIdOf = (run: Interpretation, qualifiedName: string) =>
  `${run.demo.packageId}:${qualifiedName}`;

function behaviourOf(qualifiedName: string) {
  const template = DEMO_SIGNATURES.template(qualifiedName);
  const behaviour = DEMO_BEHAVIOUR[qualifiedName];
  if (!template || !behaviour) {
    throw interpretationError('DAML_INTERPRETATION_ERROR', `unknown template ${qualifiedName}`);
  }
  return { template, behaviour };
}

/** The choice's argument type and whether it consumes; an unknown choice is the JSON layer's 400. */
function choiceSignature(
  run: Interpretation,
  qualifiedName: string,
  choiceName: string,
): { type: DamlType; consuming: boolean } {
  const { template } = behaviourOf(qualifiedName);
  const choice = template.choices.find((c) => c.name === choiceName);
  if (!choice) {
    throw new SandboxError(
      'INVALID_ARGUMENT',
      `The submitted request has invalid arguments: Invalid template:${templateIdOf(run, qualifiedName)} or choice:${choiceName}`,
      { origin: 'json' },
    );
  }
  return { type: choice.argType, consuming: choice.consuming };
}

function checkKey(template: Template, key: unknown, path: string) {
  if (!template.keyType) {
    throw interpretationError('DAML_INTERPRETATION_ERROR', `template ${template.name} has no key`);
  }
  return checkValue(template.keyType, key, resolve, path);
}

const keyNotFound = (run: Interpretation, qualifiedName: string, key: JsonValue) =>
  interpretationError(
    'CONTRACT_KEY_NOT_FOUND',
    `dependency error: couldn't find key GlobalKey(${templateIdOf(run, qualifiedName)}, ${JSON.stringify(key)})`,
  );

// ── Authorization ──

function requireAuthorized(
  run: Interpretation,
  nodeId: number,
  qualifiedName: string,
  required: string[],
  authorizers: ReadonlySet<string>,
) {
  if (required.some((party) => !authorizers.has(party))) {
    throw interpretationError(
      'DAML_AUTHORIZATION_ERROR',
      `node NodeId(${String(nodeId)}) (${templateIdOf(run, qualifiedName)}) requires authorizers ${unique(required).join(',')}, but only ${unique(authorizers).join(',')} were given`,
    );
  }
}

/** A fetch needs the authority of at least one stakeholder of the fetched contract. */
function requireStakeholderAuthority(
  nodeId: number,
  contract: CreateNode,
  authorizers: ReadonlySet<string>,
) {
  const stakeholders = [...contract.signatories, ...contract.observers];
  if (!stakeholders.some((party) => authorizers.has(party))) {
    throw interpretationError(
      'DAML_AUTHORIZATION_ERROR',
      `node NodeId(${String(nodeId)}) (${contract.templateId}) requires one of the stakeholders ${unique(stakeholders).join(',')} of the fetched contract to be an authorizer, but authorizers were ${unique(authorizers).join(',')}`,
    );
  }
}
