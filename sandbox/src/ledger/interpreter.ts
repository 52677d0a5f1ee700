import { createHash } from 'node:crypto';
import type {
  DamlType,
  DataType,
  Template,
  TypeConName,
} from '@ledger-console/participant/daml-lf/package-model';
import { SandboxError } from '../errors/sandbox-error';
import type { ContractRecord } from '../store/ledger-store';
import { checkValue } from './daml-value';
import {
  ARCHIVE_CHOICE,
  DEMO_BEHAVIOUR,
  DEMO_MODULES,
  type ChoiceBehaviour,
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

export type Command =
  | { kind: 'create'; template: ExecutableTemplate; argument: unknown }
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

export type InterpretedTransaction = { nodes: LedgerNode[] };

export type DemoPackageInfo = { packageId: string; packageName: string };

const unique = (values: Iterable<string>) => [...new Set(values)].sort();

// The built-in package's templates and data types by `Module:Entity`, built once.
const templates = new Map<string, Template>(
  DEMO_MODULES.flatMap((module) =>
    module.templates.map((t) => [`${module.name}:${t.name}`, t] as const),
  ),
);
const dataTypes = new Map<string, DataType>(
  DEMO_MODULES.flatMap((module) =>
    module.dataTypes.map((d) => [`${module.name}:${d.name}`, d] as const),
  ),
);
const resolve = (tycon: TypeConName) => dataTypes.get(`${tycon.module}:${tycon.name}`);

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
): InterpretedTransaction {
  const readers = new Set([...submission.actAs, ...submission.readAs]);

  const nodes: LedgerNode[] = [];
  let nextNodeId = 0;
  /** Contracts this transaction created, still active unless in `archivedHere`. */
  const local = new Map<string, CreateNode>();
  const localKeyHashes = new Map<string, string | null>();
  const archivedHere = new Set<string>();
  const archivedFromBefore: { contractId: string; nodeId: number }[] = [];
  const created: { node: CreateNode; keyHash: string | null }[] = [];

  const templateIdOf = (qualifiedName: string) => `${demo.packageId}:${qualifiedName}`;
  const behaviourOf = (qualifiedName: string) => {
    const template = templates.get(qualifiedName);
    const behaviour = DEMO_BEHAVIOUR[qualifiedName];
    if (!template || !behaviour) {
      throw interpretationError('DAML_INTERPRETATION_ERROR', `unknown template ${qualifiedName}`);
    }
    return { template, behaviour };
  };

  const requireAuthorized = (
    nodeId: number,
    qualifiedName: string,
    required: string[],
    authorizers: ReadonlySet<string>,
  ) => {
    if (required.some((party) => !authorizers.has(party))) {
      throw interpretationError(
        'DAML_AUTHORIZATION_ERROR',
        `node NodeId(${String(nodeId)}) (${templateIdOf(qualifiedName)}) requires authorizers ${unique(required).join(',')}, but only ${unique(authorizers).join(',')} were given`,
      );
    }
  };

  /** A fetch needs the authority of at least one stakeholder of the fetched contract. */
  const requireStakeholderAuthority = (
    nodeId: number,
    contract: CreateNode,
    authorizers: ReadonlySet<string>,
  ) => {
    const stakeholders = [...contract.signatories, ...contract.observers];
    if (!stakeholders.some((party) => authorizers.has(party))) {
      throw interpretationError(
        'DAML_AUTHORIZATION_ERROR',
        `node NodeId(${String(nodeId)}) (${contract.templateId}) requires one of the stakeholders ${unique(stakeholders).join(',')} of the fetched contract to be an authorizer, but authorizers were ${unique(authorizers).join(',')}`,
      );
    }
  };

  /** An active contract visible to the submission, from this transaction, disclosure or the store. */
  const lookup = (contractId: string, qualifiedName: string): CreateNode => {
    if (archivedHere.has(contractId)) {
      throw interpretationError(
        'CONTRACT_NOT_ACTIVE',
        `Update failed due to fetch of an inactive contract ${contractId} (${templateIdOf(qualifiedName)}). The contract had been consumed in this transaction.`,
        [['CONTRACT_ID', contractId]],
      );
    }
    let node = local.get(contractId);
    if (!node) {
      const stored = view.contract(contractId);
      const visible =
        stored !== undefined &&
        [...stored.node.signatories, ...stored.node.observers].some((party) => readers.has(party));
      const disclosed = submission.disclosed.get(contractId);
      if ((visible || disclosed) && stored?.archivedOffset != null) {
        throw interpretationError(
          'CONTRACT_NOT_ACTIVE',
          `Update failed due to fetch of an inactive contract ${contractId} (${stored.node.templateId}).`,
          [['CONTRACT_ID', contractId]],
        );
      }
      // A contract none of the readers may see is reported like one that does not exist.
      node = visible ? stored.node : disclosed;
      if (!node) {
        throw new SandboxError(
          'CONTRACT_NOT_FOUND',
          `Contract could not be found with id ${contractId}`,
          { resources: [['CONTRACT_ID', contractId]] },
        );
      }
    }
    if (node.templateId !== templateIdOf(qualifiedName)) {
      throw interpretationError(
        'DAML_INTERPRETATION_ERROR',
        `Contract ${contractId} has template ${node.templateId}, but ${templateIdOf(qualifiedName)} was expected`,
      );
    }
    return node;
  };

  const lookupKey = (qualifiedName: string, key: JsonValue): string | undefined => {
    const hash = keyHashOf(demo.packageName, qualifiedName, key);
    if (localKeyHashes.has(hash)) return localKeyHashes.get(hash) ?? undefined;
    const fromDisclosed = [...submission.disclosed.values()].find(
      (node) =>
        node.key !== null &&
        node.templateId === templateIdOf(qualifiedName) &&
        keyHashOf(demo.packageName, qualifiedName, node.key) === hash,
    );
    const stored = view.activeContractIdByKey(hash);
    if (stored !== undefined && !archivedHere.has(stored)) {
      const node = view.contract(stored)?.node;
      if (node && [...node.signatories, ...node.observers].some((party) => readers.has(party))) {
        return stored;
      }
    }
    return fromDisclosed && !archivedHere.has(fromDisclosed.contractId)
      ? fromDisclosed.contractId
      : undefined;
  };

  const checkKey = (template: Template, key: unknown, path: string) => {
    if (!template.keyType) {
      throw interpretationError(
        'DAML_INTERPRETATION_ERROR',
        `template ${template.name} has no key`,
      );
    }
    return checkValue(template.keyType, key, resolve, path);
  };

  const argType = (
    qualifiedName: string,
    choiceName: string,
  ): { type: DamlType; consuming: boolean } => {
    const { template } = behaviourOf(qualifiedName);
    const choice = template.choices.find((c) => c.name === choiceName);
    if (!choice) {
      throw new SandboxError(
        'INVALID_ARGUMENT',
        `The submitted request has invalid arguments: Invalid template:${templateIdOf(qualifiedName)} or choice:${choiceName}`,
        { origin: 'json' },
      );
    }
    return { type: choice.argType, consuming: choice.consuming };
  };

  const doCreate = (
    qualifiedName: string,
    rawArgument: unknown,
    authorizers: ReadonlySet<string>,
    parentWitnesses: ReadonlySet<string>,
    path: string,
  ): string => {
    const { template, behaviour } = behaviourOf(qualifiedName);
    const argument = checkValue(
      { kind: 'con', tycon: template.tycon, args: [] },
      rawArgument,
      resolve,
      path,
    ) as Record_;
    const nodeId = nextNodeId++;
    if (behaviour.ensure && !behaviour.ensure(argument)) {
      throw interpretationError(
        'TEMPLATE_PRECONDITION_VIOLATED',
        `Template precondition violated: ${templateIdOf(qualifiedName)}`,
      );
    }
    const signatories = unique(behaviour.signatories(argument));
    const observers = unique(behaviour.observers(argument)).filter((p) => !signatories.includes(p));
    requireAuthorized(nodeId, qualifiedName, signatories, authorizers);
    let key: JsonValue | null = null;
    let keyMaintainers: string[] = [];
    let keyHash: string | null = null;
    if (behaviour.key) {
      key = behaviour.key.of(argument);
      keyMaintainers = unique(behaviour.key.maintainers(key));
      keyHash = keyHashOf(demo.packageName, qualifiedName, key);
      // Keys are unique among all active contracts, whoever may see them.
      const stored = view.activeContractIdByKey(keyHash);
      const taken = localKeyHashes.has(keyHash)
        ? localKeyHashes.get(keyHash) !== null
        : stored !== undefined && !archivedHere.has(stored);
      if (taken) {
        throw interpretationError(
          'DUPLICATE_CONTRACT_KEY',
          `Contract key is not unique: a contract of ${templateIdOf(qualifiedName)} with key ${JSON.stringify(key)} is already active`,
        );
      }
    }
    const contractId = newContractId();
    const node: CreateNode = {
      kind: 'create',
      nodeId,
      contractId,
      templateId: templateIdOf(qualifiedName),
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
    nodes.push(node);
    local.set(contractId, node);
    if (keyHash !== null) localKeyHashes.set(keyHash, contractId);
    created.push({ node, keyHash });
    return contractId;
  };

  const doExercise = (
    contractId: string,
    qualifiedName: string,
    choiceName: string,
    rawArgument: unknown,
    authorizers: ReadonlySet<string>,
    parentWitnesses: ReadonlySet<string>,
    path: string,
  ): JsonValue => {
    const { behaviour } = behaviourOf(qualifiedName);
    const { type, consuming } = argType(qualifiedName, choiceName);
    const argument = checkValue(type, rawArgument, resolve, path) as Record_;
    const contract = lookup(contractId, qualifiedName);
    const contractArgument = contract.argument as Record_;
    const choice: ChoiceBehaviour | undefined =
      choiceName === ARCHIVE_CHOICE
        ? {
            consuming: true,
            controllers: (c) => behaviour.signatories(c),
            body: () => ({}),
          }
        : behaviour.choices[choiceName];
    if (!choice) {
      throw interpretationError(
        'DAML_INTERPRETATION_ERROR',
        `choice ${choiceName} has no behaviour`,
      );
    }
    const nodeId = nextNodeId++;
    const controllers = unique(choice.controllers(contractArgument, argument));
    requireAuthorized(nodeId, qualifiedName, controllers, authorizers);
    const stakeholders = unique([...contract.signatories, ...contract.observers]);
    const informees = consuming
      ? [...stakeholders, ...controllers]
      : [...contract.signatories, ...controllers];
    const witnesses = new Set([...parentWitnesses, ...informees]);
    const node: ExerciseNode = {
      kind: 'exercise',
      nodeId,
      contractId,
      templateId: templateIdOf(qualifiedName),
      packageName: demo.packageName,
      witnesses: unique(witnesses),
      choice: choiceName,
      choiceArgument: argument,
      actingParties: controllers,
      consuming,
      exerciseResult: null,
      lastDescendantNodeId: nodeId,
      stakeholders,
    };
    nodes.push(node);
    if (consuming) {
      // Archived before the body runs, as in Daml: the body cannot use the contract any more.
      archivedHere.add(contractId);
      const localNode = local.get(contractId);
      if (localNode) localNode.archivedInNode = nodeId;
      else archivedFromBefore.push({ contractId, nodeId });
      if (contract.key !== null) {
        localKeyHashes.set(keyHashOf(demo.packageName, qualifiedName, contract.key), null);
      }
    }
    const bodyAuthorizers = new Set([...contract.signatories, ...controllers]);
    const context = contextFor(bodyAuthorizers, witnesses);
    node.exerciseResult = choice.body(
      context,
      { contractId, argument: contractArgument },
      argument,
    );
    node.lastDescendantNodeId = nextNodeId - 1;
    return node.exerciseResult;
  };

  const contextFor = (
    authorizers: ReadonlySet<string>,
    witnesses: ReadonlySet<string>,
  ): UpdateContext => ({
    create: (qualifiedName, argument) =>
      doCreate(qualifiedName, argument, authorizers, witnesses, ''),
    exercise: (contractId, qualifiedName, choice, argument) =>
      doExercise(contractId, qualifiedName, choice, argument, authorizers, witnesses, ''),
    fetch: (contractId, qualifiedName) => {
      const nodeId = nextNodeId++;
      const contract = lookup(contractId, qualifiedName);
      requireStakeholderAuthority(nodeId, contract, authorizers);
      return contract.argument as Record_;
    },
    fetchByKey: (qualifiedName, key) => {
      const nodeId = nextNodeId++;
      const { template } = behaviourOf(qualifiedName);
      const checked = checkKey(template, key, 'key');
      const contractId = lookupKey(qualifiedName, checked);
      if (contractId === undefined) throw keyNotFound(qualifiedName, checked);
      const contract = lookup(contractId, qualifiedName);
      // Authorized like a fetch: one stakeholder among the authorizers (lookupByKey needs all
      // maintainers).
      requireStakeholderAuthority(nodeId, contract, authorizers);
      return { contractId, argument: contract.argument as Record_ };
    },
    lookupByKey: (qualifiedName, key) => {
      const nodeId = nextNodeId++;
      const { template, behaviour } = behaviourOf(qualifiedName);
      const checked = checkKey(template, key, 'key');
      requireAuthorized(
        nodeId,
        qualifiedName,
        behaviour.key?.maintainers(checked) ?? [],
        authorizers,
      );
      return lookupKey(qualifiedName, checked) ?? null;
    },
    fail: (message) => {
      throw interpretationError('INTERPRETATION_USER_ERROR', `User abort: ${message}`);
    },
  });

  const keyNotFound = (qualifiedName: string, key: JsonValue) =>
    interpretationError(
      'CONTRACT_KEY_NOT_FOUND',
      `dependency error: couldn't find key GlobalKey(${templateIdOf(qualifiedName)}, ${JSON.stringify(key)})`,
    );

  const rootAuthorizers = new Set(submission.actAs);
  const none = new Set<string>();
  commands.forEach((command, i) => {
    const at = `commands[${String(i)}]`;
    const name = command.template.qualifiedName;
    const exerciseAt = (contractId: string, choice: string, argument: unknown) =>
      doExercise(contractId, name, choice, argument, rootAuthorizers, none, `${at}.choiceArgument`);
    switch (command.kind) {
      case 'create':
        doCreate(name, command.argument, rootAuthorizers, none, `${at}.createArguments`);
        break;
      case 'exercise':
        exerciseAt(command.contractId, command.choice, command.argument);
        break;
      case 'createAndExercise': {
        argType(name, command.choice);
        const created = doCreate(
          name,
          command.createArgument,
          rootAuthorizers,
          none,
          `${at}.createArguments`,
        );
        exerciseAt(created, command.choice, command.choiceArgument);
        break;
      }
      case 'exerciseByKey': {
        argType(name, command.choice);
        const key = checkKey(command.template.signature, command.key, `${at}.contractKey`);
        const contractId = lookupKey(name, key);
        if (contractId === undefined) throw keyNotFound(name, key);
        exerciseAt(contractId, command.choice, command.argument);
        break;
      }
    }
  });

  return { nodes };
}
