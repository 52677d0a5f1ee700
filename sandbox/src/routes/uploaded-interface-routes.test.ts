import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeDar,
  templatePackageSpec,
  type PackageSpec,
} from '@ledger-console/participant/daml-lf/encode-package';
import type { DamlType, TypeConName } from '@ledger-console/participant/daml-lf/package-model';
import { newContractId, type CreateNode, type ExerciseNode } from '../ledger/transaction';
import {
  allocateParty,
  createCommand,
  IOU,
  recordTransaction,
  submit,
} from '../testing/ledger-history';
import { createTestSandbox, type TestSandbox } from '../testing/test-client';

/**
 * Interface filters on a package uploaded as a DAR, not the built-in one: which templates
 * implement its interface comes from the stored archive, and since the sandbox cannot evaluate
 * the package's view expression, the view carries an error status instead of a value.
 */

const MODULE = 'Shop.Asset';
const self = (name: string): TypeConName => ({ packageId: '', module: MODULE, name });
const party: DamlType = { kind: 'prim', prim: 'PARTY', args: [] };
const text: DamlType = { kind: 'prim', prim: 'TEXT', args: [] };
const itemFields = [
  { name: 'owner', type: party },
  { name: 'label', type: text },
];

const withoutInterfaces = templatePackageSpec({
  name: 'shop-assets',
  version: '1.0.0',
  module: MODULE,
  templates: [
    { name: 'Widget', fields: itemFields },
    { name: 'Gadget', fields: itemFields },
  ],
  dataTypes: [
    {
      kind: 'record',
      name: 'AssetView',
      params: [],
      serializable: true,
      fields: [{ name: 'owner', type: party }],
    },
    { kind: 'interface', name: 'Asset', params: [], serializable: false },
  ],
});

/** `Shop.Asset`: the interface `Asset`, implemented by `Widget` and not by `Gadget`. */
const SHOP: PackageSpec = {
  ...withoutInterfaces,
  modules: withoutInterfaces.modules.map((module) => ({
    ...module,
    templates: module.templates.map((template) =>
      template.name === 'Widget' ? { ...template, implements: [self('Asset')] } : template,
    ),
    interfaces: [
      {
        name: 'Asset',
        tycon: self('Asset'),
        choices: [],
        viewType: { kind: 'con', tycon: self('AssetView'), args: [] },
        requires: [],
      },
    ],
  })),
};

const ASSET_BY_NAME = `#shop-assets:${MODULE}:Asset`;
const HOLDING_BY_NAME = '#sandbox-demo:Demo.Holding:Holding';

let t: TestSandbox;
let alice: string;
let shopId: string;
beforeEach(async () => {
  t = createTestSandbox();
  alice = await allocateParty(t, 'Alice');
  const dar = await encodeDar([SHOP]);
  shopId = dar.packageIds[0] ?? '';
  const upload = await t.call('POST', '/v2/dars', { rawBody: dar.bytes });
  expect(upload.status, upload.text).toBe(200);
});
afterEach(() => {
  t.close();
});

/** A create of the shop package, as a participant running it would record it. */
function shopCreate(template: 'Widget' | 'Gadget', label: string, nodeId = 0): CreateNode {
  return {
    kind: 'create',
    nodeId,
    contractId: newContractId(),
    templateId: `${shopId}:${MODULE}:${template}`,
    packageName: SHOP.name,
    witnesses: [alice],
    argument: { owner: alice, label },
    signatories: [alice],
    observers: [],
    key: null,
    keyMaintainers: [],
    keyHash: null,
    archivedInNode: null,
  };
}

function shopArchive(created: CreateNode): ExerciseNode {
  return {
    kind: 'exercise',
    nodeId: 0,
    contractId: created.contractId,
    templateId: created.templateId,
    packageName: created.packageName,
    witnesses: [alice],
    choice: 'Archive',
    choiceArgument: {},
    actingParties: [alice],
    consuming: true,
    exerciseResult: {},
    lastDescendantNodeId: 0,
    stakeholders: [alice],
  };
}

const interfaceFilter = (interfaceId: string, view = true) => ({
  identifierFilter: {
    InterfaceFilter: {
      value: { interfaceId, includeInterfaceView: view, includeCreatedEventBlob: false },
    },
  },
});
const formatFor = (...cumulative: unknown[]) => ({
  filtersByParty: { [alice]: { cumulative } },
  verbose: false,
});

const ledgerEnd = async () => (await t.get('/v2/state/ledger-end')).json.offset as number;

async function updates(eventFormat: unknown, transactionShape: string) {
  const response = await t.post('/v2/updates', {
    beginExclusive: 0,
    endInclusive: await ledgerEnd(),
    updateFormat: { includeTransactions: { eventFormat, transactionShape } },
  });
  expect(response.status, response.text).toBe(200);
  return (response.json as any[]).flatMap((element) => {
    const tx = element.update.Transaction?.value;
    return tx ? (tx.events as any[]) : [];
  });
}

async function activeContracts(eventFormat: unknown) {
  const response = await t.post('/v2/state/active-contracts', {
    activeAtOffset: await ledgerEnd(),
    eventFormat,
  });
  expect(response.status, response.text).toBe(200);
  return (response.json as any[]).map(
    (element) => element.contractEntry.JsActiveContract.createdEvent,
  );
}

/** What Canton shows for a view it could not compute: the status, and no value nor package. */
const failedView = (interfaceId: string) => ({
  interfaceId,
  viewStatus: {
    code: 9,
    message: expect.stringMatching(/^SANDBOX_CANNOT_INTERPRET\(9,0\): .*cannot run Daml code/),
    details: [],
  },
  viewValue: null,
  implementationPackageId: '',
});

describe('interface filters on an uploaded package', () => {
  it('select its implementing templates in /v2/updates, with the view failing as not computed', async () => {
    const widget = shopCreate('Widget', 'w-1');
    recordTransaction(t, [alice], [widget, shopCreate('Gadget', 'g-1', 1)]);
    const assetId = `${shopId}:${MODULE}:Asset`;
    for (const reference of [ASSET_BY_NAME, assetId]) {
      const events = await updates(
        formatFor(interfaceFilter(reference)),
        'TRANSACTION_SHAPE_ACS_DELTA',
      );
      expect(events, reference).toHaveLength(1);
      const created = events[0].CreatedEvent;
      expect(created).toMatchObject({
        contractId: widget.contractId,
        templateId: widget.templateId,
        packageName: 'shop-assets',
        // Matched by an interface filter alone: the view is the way to the data.
        createArgument: null,
      });
      expect(created.interfaceViews).toEqual([failedView(assetId)]);
      expect(created.interfaceViews[0].viewStatus.message).toContain(
        `interface ${assetId} for template ${widget.templateId}`,
      );
    }
    // Without the view asked for, the contract is still selected, with no views.
    const [plain] = await updates(
      formatFor(interfaceFilter(ASSET_BY_NAME, false)),
      'TRANSACTION_SHAPE_ACS_DELTA',
    );
    expect(plain.CreatedEvent.interfaceViews).toEqual([]);
  });

  it('serve the built-in and the uploaded package through one path, each view as computed', async () => {
    const bank = await allocateParty(t, 'Bank');
    submit(
      t,
      [bank],
      [
        createCommand(t, IOU, {
          issuer: bank,
          owner: alice,
          currency: 'USD',
          amount: '7',
          observers: [],
        }),
      ],
    );
    recordTransaction(t, [alice], [shopCreate('Widget', 'w-2')]);
    const events = await updates(
      formatFor(interfaceFilter(HOLDING_BY_NAME), interfaceFilter(ASSET_BY_NAME)),
      'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    );
    expect(events.map((event) => event.CreatedEvent.interfaceViews)).toEqual([
      [
        {
          interfaceId: `${t.state.demoPackageId}:Demo.Holding:Holding`,
          viewStatus: { code: 0, message: '', details: [] },
          viewValue: { owner: alice, issuer: bank, amount: '7.0000000000', currency: 'USD' },
          implementationPackageId: t.state.demoPackageId,
        },
      ],
      [failedView(`${shopId}:${MODULE}:Asset`)],
    ]);
  });

  it('list the interface as implemented on the archival of an uploaded contract', async () => {
    const widget = shopCreate('Widget', 'w-3');
    recordTransaction(t, [alice], [widget]);
    recordTransaction(t, [alice], [shopArchive(widget)]);
    const events = await updates(
      formatFor(interfaceFilter(ASSET_BY_NAME)),
      'TRANSACTION_SHAPE_ACS_DELTA',
    );
    expect(events[1].ArchivedEvent).toMatchObject({
      contractId: widget.contractId,
      implementedInterfaces: [`${shopId}:${MODULE}:Asset`],
    });
  });

  it('select its contracts in /v2/state/active-contracts, with the same view status', async () => {
    const widget = shopCreate('Widget', 'w-4');
    const archived = shopCreate('Widget', 'w-5', 1);
    recordTransaction(t, [alice], [widget, archived, shopCreate('Gadget', 'g-2', 2)]);
    recordTransaction(t, [alice], [shopArchive(archived)]);
    const contracts = await activeContracts(formatFor(interfaceFilter(ASSET_BY_NAME)));
    expect(contracts.map((event) => event.contractId)).toEqual([widget.contractId]);
    expect(contracts[0].interfaceViews).toEqual([failedView(`${shopId}:${MODULE}:Asset`)]);
    // A wildcard shows every contract of the package with its argument, and no views.
    const all = await activeContracts(
      formatFor({
        identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } },
      }),
    );
    expect(all.map((event) => event.createArgument.label)).toEqual(['w-4', 'g-2']);
    expect(all.map((event) => event.interfaceViews)).toEqual([[], []]);
  });
});
