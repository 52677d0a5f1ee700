import type {
  Choice,
  DamlType,
  DataType,
  Field,
  Interface,
  Module,
  Template,
  TypeConName,
} from '@ledger-console/participant/daml-lf/package-model';
import type { JsonValue } from './transaction';
import { numericToUnits, unitsToNumeric } from './daml-value';

/**
 * The sandbox's built-in package `sandbox-demo`. It cannot run Daml, so each template and
 * choice is declared twice over: its Daml-LF signature (encoded into a real archive, so the
 * console decodes it like any uploaded package) and its behaviour in TypeScript with Daml's
 * semantics, which the interpreter runs.
 */
export const DEMO_PACKAGE_NAME = 'sandbox-demo';
export const DEMO_PACKAGE_VERSION = '1.0.0';

export type Record_ = Record<string, JsonValue>;

/** What a choice body may do; each call becomes a node of the transaction, as in Daml. */
export type UpdateContext = {
  create(template: string, argument: Record_): string;
  exercise(contractId: string, template: string, choice: string, argument: Record_): JsonValue;
  /** A `fetch`: takes a node id but is never emitted. */
  fetch(contractId: string, template: string): Record_;
  /** `fetchByKey`: a fetch node; CONTRACT_KEY_NOT_FOUND when no contract has the key. */
  fetchByKey(template: string, key: JsonValue): { contractId: string; argument: Record_ };
  /** `lookupByKey`: a lookup node, never emitted. */
  lookupByKey(template: string, key: JsonValue): string | null;
  /** `abort`/`error` in the choice body. */
  fail(message: string): never;
};

export type ChoiceBehaviour = {
  consuming: boolean;
  controllers(contract: Record_, argument: Record_): string[];
  body(
    ctx: UpdateContext,
    self: { contractId: string; argument: Record_ },
    argument: Record_,
  ): JsonValue;
};

/** The contract a choice runs on: its id and its create argument. */
export type ChoiceSelf = { contractId: string; argument: Record_ };

/** A template's instance of an interface: the view, and the methods the choices call. */
export type InterfaceInstance = {
  view(contract: Record_): Record_;
  methods: Record<string, (ctx: UpdateContext, self: ChoiceSelf, argument: Record_) => JsonValue>;
};

/** An interface choice: controllers and body see the contract through its view. */
export type InterfaceChoiceBehaviour = {
  consuming: boolean;
  controllers(view: Record_, argument: Record_): string[];
  body(
    ctx: UpdateContext,
    self: ChoiceSelf & {
      view: Record_;
      /** Calls the method as the contract's template implements it. */
      call(method: string, argument: Record_): JsonValue;
    },
    argument: Record_,
  ): JsonValue;
};

export type InterfaceBehaviour = {
  /** By the implementing template's `Module:Entity`. */
  instances: Record<string, InterfaceInstance>;
  choices: Record<string, InterfaceChoiceBehaviour>;
};

export type TemplateBehaviour = {
  signatories(argument: Record_): string[];
  observers(argument: Record_): string[];
  /** The template's `ensure` clause. */
  ensure?(argument: Record_): boolean;
  key?: { of(argument: Record_): JsonValue; maintainers(key: JsonValue): string[] };
  choices: Record<string, ChoiceBehaviour>;
};

// ── Signatures ──

const SCALE = 10;
const self = (module: string, name: string): TypeConName => ({ packageId: '', module, name });
const prim = (
  name: Extract<DamlType, { kind: 'prim' }>['prim'],
  ...args: DamlType[]
): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const con = (module: string, name: string): DamlType => ({
  kind: 'con',
  tycon: self(module, name),
  args: [],
});
const party = prim('PARTY');
const text = prim('TEXT');
const int64 = prim('INT64');
const numeric = prim('NUMERIC', { kind: 'nat', value: SCALE });
const unit = prim('UNIT');
const listOf = (type: DamlType) => prim('LIST', type);
const contractId = (module: string, name: string) => prim('CONTRACT_ID', con(module, name));
const field = (name: string, type: DamlType): Field => ({ name, type });
const record = (name: string, fields: Field[]): DataType => ({
  kind: 'record',
  name,
  params: [],
  serializable: true,
  fields,
});
const choice = (
  module: string,
  name: string,
  consuming: boolean,
  returnType: DamlType,
): Choice => ({ name, consuming, argType: con(module, name), returnType });
const archive = (): Choice => choice('Demo.Template', 'Archive', true, unit);
const template = (
  module: string,
  name: string,
  fields: Field[],
  choices: Choice[],
  { keyType, implements: interfaces = [] }: { keyType?: DamlType; implements?: TypeConName[] } = {},
): Template => ({
  name,
  tycon: self(module, name),
  fields,
  ...(keyType ? { keyType } : {}),
  choices: [...choices, archive()],
  implements: interfaces,
});
const moduleOf = (
  name: string,
  dataTypes: DataType[],
  templates: Template[],
  interfaces: Interface[] = [],
): Module => ({
  name,
  dataTypes,
  synonyms: [],
  templates,
  interfaces,
});

const HOLDING = 'Demo.Holding';
const holdingViewFields = [
  field('owner', party),
  field('issuer', party),
  field('amount', numeric),
  field('currency', text),
];
// Every interface has Archive too, controlled by the contract's signatories, as in Daml.
const holding: Interface = {
  name: 'Holding',
  tycon: self(HOLDING, 'Holding'),
  choices: [
    choice(HOLDING, 'Holding_Transfer', true, contractId(HOLDING, 'Holding')),
    choice(HOLDING, 'Holding_GetView', false, con(HOLDING, 'HoldingView')),
    archive(),
  ],
  viewType: con(HOLDING, 'HoldingView'),
  requires: [],
};

const IOU = 'Demo.Iou';
const iouFields = [
  field('issuer', party),
  field('owner', party),
  field('currency', text),
  field('amount', numeric),
  field('observers', listOf(party)),
];
const issuanceFields = [
  field('issuer', party),
  field('owner', party),
  field('currency', text),
  field('amount', numeric),
  field('count', int64),
];
const ACCOUNT = 'Demo.Account';
const accountFields = [field('bank', party), field('owner', party), field('number', text)];
const accountKeyFields = [field('bank', party), field('number', text)];
const FANOUT = 'Demo.Fanout';
const fanoutFields = [field('owner', party), field('label', text)];

export const DEMO_MODULES: readonly Module[] = [
  moduleOf('Demo.Template', [record('Archive', [])], []),
  moduleOf(
    HOLDING,
    [
      record('HoldingView', holdingViewFields),
      { kind: 'interface', name: 'Holding', params: [], serializable: false },
      record('Holding_Transfer', [field('newOwner', party)]),
      record('Holding_GetView', [field('viewer', party)]),
    ],
    [],
    [holding],
  ),
  moduleOf(
    IOU,
    [
      record('Iou', iouFields),
      record('Iou_Transfer', [field('newOwner', party)]),
      record('Iou_Split', [field('splitAmount', numeric)]),
      record('Iou_Merge', [field('otherCid', contractId(IOU, 'Iou'))]),
      record('Iou_AddObserver', [field('newObserver', party)]),
      record('SplitResult', [
        field('splitCid', contractId(IOU, 'Iou')),
        field('restCid', contractId(IOU, 'Iou')),
      ]),
      record('IouIssuance', issuanceFields),
      record('IouIssuance_Issue', []),
    ],
    [
      template(
        IOU,
        'Iou',
        iouFields,
        [
          choice(IOU, 'Iou_Transfer', true, contractId(IOU, 'Iou')),
          choice(IOU, 'Iou_Split', true, con(IOU, 'SplitResult')),
          choice(IOU, 'Iou_Merge', true, contractId(IOU, 'Iou')),
          choice(IOU, 'Iou_AddObserver', true, contractId(IOU, 'Iou')),
        ],
        { implements: [holding.tycon] },
      ),
      template(IOU, 'IouIssuance', issuanceFields, [choice(IOU, 'IouIssuance_Issue', true, int64)]),
    ],
  ),
  moduleOf(
    ACCOUNT,
    [
      record('Account', accountFields),
      record('AccountKey', accountKeyFields),
      record('Account_Issue', [field('currency', text), field('amount', numeric)]),
    ],
    [
      template(
        ACCOUNT,
        'Account',
        accountFields,
        [choice(ACCOUNT, 'Account_Issue', false, contractId(IOU, 'Iou'))],
        { keyType: con(ACCOUNT, 'AccountKey') },
      ),
    ],
  ),
  moduleOf(
    FANOUT,
    [
      record('Fanout', fanoutFields),
      record('Fanout_Run', [field('width', int64), field('depth', int64)]),
    ],
    [template(FANOUT, 'Fanout', fanoutFields, [choice(FANOUT, 'Fanout_Run', true, int64)])],
  ),
];

/** The built-in package's signatures by `Module:Entity`, indexed once. */
const signatureIndex = <T>(pick: (module: Module) => readonly (T & { name: string })[]) =>
  new Map<string, T>(
    DEMO_MODULES.flatMap((module) =>
      pick(module).map((entry) => [`${module.name}:${entry.name}`, entry] as const),
    ),
  );
const templateSignatures = signatureIndex((module) => module.templates);
const interfaceSignatures = signatureIndex((module) => module.interfaces);
const dataTypeSignatures = signatureIndex((module) => module.dataTypes);

/** Looks up the built-in package's Daml-LF signatures; types name it with an empty package id. */
export const DEMO_SIGNATURES = {
  template: (qualifiedName: string): Template | undefined => templateSignatures.get(qualifiedName),
  iface: (qualifiedName: string): Interface | undefined => interfaceSignatures.get(qualifiedName),
  dataType: (tycon: TypeConName): DataType | undefined =>
    dataTypeSignatures.get(`${tycon.module}:${tycon.name}`),
};

// ── Behaviour ──

const str = (value: JsonValue | undefined): string => (typeof value === 'string' ? value : '');
const parties = (value: JsonValue | undefined): string[] =>
  Array.isArray(value) ? value.map((item) => str(item)) : [];
const units = (value: JsonValue | undefined) => numericToUnits(str(value), SCALE);
const amount = (value: bigint) => unitsToNumeric(value, SCALE);

/** The most nodes one Fanout_Run may make: 10,000 is the target, with room to spare. */
export const MAX_FANOUT_NODES = 50_000;

/** The deepest Fanout_Run: each level nests one exercise, and Daml has no tail calls either. */
export const MAX_FANOUT_DEPTH = 100;

/**
 * The most Ious one IouIssuance_Issue may create: as many nodes as a Fanout, so one transaction
 * stays within what the sandbox renders and stores comfortably.
 */
export const MAX_ISSUANCE_COUNT = MAX_FANOUT_NODES;

/**
 * Nodes in the subtree of one Fanout_Run exercise, itself included: from the bottom level up,
 * each level is the exercise, its `width` creates, and below all but the last level one more
 * exercise per child. Stops counting once past `cap`.
 */
export function fanoutNodes(width: number, depth: number, cap = Infinity): number {
  if (depth <= 0 || width <= 0) return 1;
  let below = 0;
  for (let level = 1; level <= depth; level++) {
    below = 1 + width * (1 + (level > 1 ? below : 0));
    if (below > cap) return below;
  }
  return below;
}

export const DEMO_BEHAVIOUR: Readonly<Record<string, TemplateBehaviour>> = {
  'Demo.Iou:Iou': {
    signatories: (iou) => [str(iou.issuer)],
    observers: (iou) => [str(iou.owner), ...parties(iou.observers)],
    ensure: (iou) => units(iou.amount) > 0n,
    choices: {
      Iou_Transfer: {
        consuming: true,
        controllers: (iou) => [str(iou.owner)],
        body: (ctx, { argument: iou }, { newOwner = '' }) =>
          ctx.create('Demo.Iou:Iou', { ...iou, owner: newOwner }),
      },
      Iou_Split: {
        consuming: true,
        controllers: (iou) => [str(iou.owner)],
        body: (ctx, { argument: iou }, { splitAmount }) => {
          const total = units(iou.amount);
          const split = units(splitAmount);
          if (split <= 0n || split >= total) {
            ctx.fail(
              `Iou_Split: splitAmount must be more than 0 and less than the amount ${str(iou.amount)}`,
            );
          }
          const splitCid = ctx.create('Demo.Iou:Iou', { ...iou, amount: amount(split) });
          const restCid = ctx.create('Demo.Iou:Iou', { ...iou, amount: amount(total - split) });
          return { splitCid, restCid };
        },
      },
      Iou_Merge: {
        consuming: true,
        controllers: (iou) => [str(iou.owner)],
        body: (ctx, { contractId: selfId, argument: iou }, { otherCid }) => {
          const otherId = str(otherCid);
          if (otherId === selfId) ctx.fail('Iou_Merge: cannot merge an Iou with itself');
          const other = ctx.fetch(otherId, 'Demo.Iou:Iou');
          for (const key of ['issuer', 'owner', 'currency'] as const) {
            if (str(other[key]) !== str(iou[key])) {
              ctx.fail(`Iou_Merge: the other Iou has a different ${key}`);
            }
          }
          ctx.exercise(otherId, 'Demo.Iou:Iou', 'Archive', {});
          return ctx.create('Demo.Iou:Iou', {
            ...iou,
            amount: amount(units(iou.amount) + units(other.amount)),
          });
        },
      },
      Iou_AddObserver: {
        consuming: true,
        controllers: (iou) => [str(iou.owner)],
        body: (ctx, { argument: iou }, { newObserver = '' }) =>
          ctx.create('Demo.Iou:Iou', {
            ...iou,
            observers: [...new Set([...parties(iou.observers), str(newObserver)])],
          }),
      },
    },
  },
  // Issues `count` identical Ious in one transaction: how benchmarks fill an ACS quickly while
  // every Iou is still an ordinary create the issuer authorized.
  'Demo.Iou:IouIssuance': {
    signatories: (issuance) => [str(issuance.issuer)],
    observers: (issuance) => [str(issuance.owner)],
    ensure: (issuance) => units(issuance.amount) > 0n,
    choices: {
      IouIssuance_Issue: {
        consuming: true,
        controllers: (issuance) => [str(issuance.issuer)],
        body: (ctx, { argument: issuance }) => {
          const count = Number(str(issuance.count));
          if (count < 0 || count > MAX_ISSUANCE_COUNT) {
            ctx.fail(
              `IouIssuance_Issue: count ${String(count)} must be between 0 and the sandbox demo's limit of ${String(MAX_ISSUANCE_COUNT)}`,
            );
          }
          const iou = {
            issuer: str(issuance.issuer),
            owner: str(issuance.owner),
            currency: str(issuance.currency),
            amount: issuance.amount ?? '',
            observers: [],
          };
          for (let i = 0; i < count; i++) ctx.create('Demo.Iou:Iou', iou);
          return String(count);
        },
      },
    },
  },
  'Demo.Account:Account': {
    signatories: (account) => [str(account.bank)],
    observers: (account) => [str(account.owner)],
    key: {
      of: (account) => ({ bank: str(account.bank), number: str(account.number) }),
      maintainers: (key) => [str((key as Record_).bank)],
    },
    choices: {
      Account_Issue: {
        consuming: false,
        controllers: (account) => [str(account.bank)],
        body: (ctx, { argument: account }, { currency = '', amount: issued = '' }) => {
          // Re-reads the account by key, as real workflows do: a fetch node that is never emitted.
          ctx.fetchByKey('Demo.Account:Account', {
            bank: account.bank ?? '',
            number: account.number ?? '',
          });
          return ctx.create('Demo.Iou:Iou', {
            issuer: str(account.bank),
            owner: str(account.owner),
            currency,
            amount: issued,
            observers: [],
          });
        },
      },
    },
  },
  'Demo.Fanout:Fanout': {
    signatories: (fanout) => [str(fanout.owner)],
    observers: () => [],
    choices: {
      Fanout_Run: {
        consuming: true,
        controllers: (fanout) => [str(fanout.owner)],
        body: (ctx, { argument: fanout }, { width, depth }) => {
          const w = Number(str(width));
          const d = Number(str(depth));
          if (w < 0 || d < 0) ctx.fail('Fanout_Run: width and depth must not be negative');
          if (d > MAX_FANOUT_DEPTH) {
            ctx.fail(
              `Fanout_Run: depth ${String(d)} is over the sandbox demo's limit of ${String(MAX_FANOUT_DEPTH)}`,
            );
          }
          const nodes = fanoutNodes(w, d, MAX_FANOUT_NODES);
          if (nodes > MAX_FANOUT_NODES) {
            ctx.fail(
              `Fanout_Run: width ${String(w)} and depth ${String(d)} make ${String(nodes)} nodes; the sandbox demo allows at most ${String(MAX_FANOUT_NODES)}`,
            );
          }
          let created = 0;
          for (let i = 1; i <= (d > 0 ? w : 0); i++) {
            const child = ctx.create('Demo.Fanout:Fanout', {
              owner: fanout.owner ?? '',
              label: `${str(fanout.label)}.${String(i)}`,
            });
            created += 1;
            if (d > 1) {
              const below = ctx.exercise(child, 'Demo.Fanout:Fanout', 'Fanout_Run', {
                width: String(w),
                depth: String(d - 1),
              });
              created += Number(str(below));
            }
          }
          return String(created);
        },
      },
    },
  },
};

/** `Archive` on any template: consuming, controlled by the signatories, returns unit. */
export const ARCHIVE_CHOICE = 'Archive';

/** The interfaces' behaviour, by `Module:Entity`: each choice, and each template's instance. */
export const DEMO_INTERFACES: Readonly<Record<string, InterfaceBehaviour>> = {
  'Demo.Holding:Holding': {
    instances: {
      'Demo.Iou:Iou': {
        view: (iou) => ({
          owner: str(iou.owner),
          issuer: str(iou.issuer),
          amount: iou.amount ?? '',
          currency: str(iou.currency),
        }),
        methods: {
          transfer: (ctx, { argument: iou }, { newOwner = '' }) =>
            ctx.create('Demo.Iou:Iou', { ...iou, owner: newOwner }),
        },
      },
    },
    choices: {
      Holding_Transfer: {
        consuming: true,
        controllers: (view) => [str(view.owner)],
        body: (_ctx, self, argument) => self.call('transfer', argument),
      },
      // A read through the interface: whoever exercises it must be able to see the contract.
      Holding_GetView: {
        consuming: false,
        controllers: (_view, { viewer }) => [str(viewer)],
        body: (_ctx, self) => self.view,
      },
    },
  },
};
