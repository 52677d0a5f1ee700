import { describe, expect, it } from 'vitest';
import {
  submitRequest,
  TRANSACTION_ENDPOINT,
  transactionRequestBody,
  TREE_ENDPOINT,
  type JsCommands,
} from '@/api/commands';
import type { DamlType, PackageContents } from '@/api/daml-lf-decoder';
import { toCurl } from '@/lib/text/copy-as';
import { prepareRequest } from '@/api/interactive-submission';
import {
  cantonConsoleSubmit,
  composerCopyAs,
  executeCopyAs,
  prepareCopyAs,
} from './composer-copy-as';
import { toJsCommands } from './composer-form-mappers';
import { emptyComposerValues } from './composer-form-schema';
import { templateEntries } from '@/hooks/template-catalog';

const PKG = 'a'.repeat(64);
const ALICE = `alice::1220${'1'.repeat(64)}`;
const BOB = `bob::1220${'2'.repeat(64)}`;
const CID = `00${'c'.repeat(66)}`;
const IOU = '#sandbox-demo:Demo.Iou:Iou';

const prim = (name: string, ...args: DamlType[]) =>
  ({ kind: 'prim', prim: name, args }) as DamlType;
const con = (name: string): DamlType => ({
  kind: 'con',
  tycon: { packageId: PKG, module: 'Demo.Iou', name },
  args: [],
});

/** The demo's Iou, as the decoder gives it: the template, its record and a choice's record. */
const demo: PackageContents = {
  packageId: PKG,
  lfVersion: { major: 2, minor: '1' },
  name: 'sandbox-demo',
  version: '1.0.0',
  modules: [
    {
      name: 'Demo.Iou',
      synonyms: [],
      interfaces: [],
      dataTypes: [
        {
          kind: 'record',
          name: 'Iou',
          params: [],
          serializable: true,
          fields: [
            { name: 'issuer', type: prim('PARTY') },
            { name: 'owner', type: prim('PARTY') },
            { name: 'currency', type: prim('TEXT') },
            { name: 'amount', type: prim('NUMERIC', { kind: 'nat', value: 10 }) },
            { name: 'observers', type: prim('LIST', prim('PARTY')) },
          ],
        },
        {
          kind: 'record',
          name: 'Iou_Split',
          params: [],
          serializable: true,
          fields: [{ name: 'splitAmount', type: prim('NUMERIC', { kind: 'nat', value: 10 }) }],
        },
        {
          kind: 'record',
          name: 'Iou_Transfer',
          params: [],
          serializable: true,
          fields: [{ name: 'newOwner', type: prim('PARTY') }],
        },
      ],
      templates: [
        {
          name: 'Iou',
          tycon: { packageId: PKG, module: 'Demo.Iou', name: 'Iou' },
          fields: [],
          implements: [],
          choices: [
            {
              name: 'Iou_Split',
              consuming: true,
              argType: con('Iou_Split'),
              returnType: prim('UNIT'),
            },
            {
              name: 'Iou_Transfer',
              consuming: true,
              argType: con('Iou_Transfer'),
              returnType: prim('UNIT'),
            },
          ],
        },
      ],
    },
  ],
  internedStrings: [],
  internedDottedNames: [],
} as unknown as PackageContents;

const catalog = { packages: [demo], templates: templateEntries([demo]) };

const createIou = (overrides: Partial<JsCommands> = {}, amount = '100'): JsCommands => ({
  commands: [
    {
      CreateCommand: {
        templateId: IOU,
        createArguments: {
          issuer: ALICE,
          owner: ALICE,
          currency: 'USD',
          amount,
          observers: [BOB],
        },
      },
    },
  ],
  commandId: 'cmd-1',
  actAs: [ALICE],
  ...overrides,
});

describe('composerCopyAs', () => {
  it('copies as curl exactly the request Submit sends', () => {
    const values = {
      ...emptyComposerValues({ actAs: [ALICE], commandId: 'cmd-1' }),
      commands: [
        {
          kind: 'create' as const,
          templateId: IOU,
          contractId: '',
          contractKey: 'null',
          choice: '',
          createArguments: JSON.stringify({
            issuer: ALICE,
            owner: ALICE,
            currency: 'USD',
            amount: '100',
            observers: [],
          }),
          choiceArgument: '{}',
        },
      ],
    };
    const request = toJsCommands(values);
    const tree = composerCopyAs(request, catalog, 'transaction-tree');
    expect(tree.request).toEqual({ method: 'POST', path: TREE_ENDPOINT, body: request });
    expect(tree.request).toEqual(submitRequest(request, 'transaction-tree'));
    const flat = composerCopyAs(request, catalog, 'transaction');
    expect(flat.request).toEqual({
      method: 'POST',
      path: TRANSACTION_ENDPOINT,
      body: transactionRequestBody(request),
    });
    const curl = toCurl(tree.request, 'https://console.example');
    expect(curl).toContain(`'https://console.example${TREE_ENDPOINT}'`);
    expect(curl).toContain(JSON.stringify(request, null, 2));
  });

  it('writes a create as a Canton console command', () => {
    expect(cantonConsoleSubmit(createIou({ readAs: [BOB], userId: 'alice-user' }), catalog)).toBe(
      'participant.ledger_api.commands.submit(' +
        `actAs = Seq(PartyId.tryFromProtoPrimitive("${ALICE}")), ` +
        'commands = Seq(ledger_api_utils.create("#sandbox-demo", "Demo.Iou", "Iou", ' +
        'scala.collection.immutable.ListMap(' +
        `"issuer" -> PartyId.tryFromProtoPrimitive("${ALICE}"), ` +
        `"owner" -> PartyId.tryFromProtoPrimitive("${ALICE}"), ` +
        '"currency" -> "USD", "amount" -> 100.0, ' +
        `"observers" -> Seq(PartyId.tryFromProtoPrimitive("${BOB}"))))), ` +
        'commandId = "cmd-1", ' +
        `readAs = Seq(PartyId.tryFromProtoPrimitive("${BOB}")), ` +
        'userId = "alice-user")',
    );
  });

  it('writes an exercise as a Canton console command', () => {
    const request: JsCommands = {
      commands: [
        {
          ExerciseCommand: {
            templateId: `${PKG}:Demo.Iou:Iou`,
            contractId: CID,
            choice: 'Iou_Split',
            choiceArgument: { splitAmount: '40.5' },
          },
        },
      ],
      commandId: 'cmd-2',
      actAs: [ALICE],
      workflowId: 'flow',
    };
    expect(composerCopyAs(request, catalog).cantonConsole).toBe(
      'participant.ledger_api.commands.submit(' +
        `actAs = Seq(PartyId.tryFromProtoPrimitive("${ALICE}")), ` +
        `commands = Seq(ledger_api_utils.exercise("${PKG}", "Demo.Iou", "Iou", "Iou_Split", ` +
        `Map("splitAmount" -> 40.5), "${CID}")), ` +
        'workflowId = "flow", commandId = "cmd-2")',
    );
  });

  it('offers no console command where it would not say the same', () => {
    // A Numeric a Double cannot carry exactly.
    expect(cantonConsoleSubmit(createIou({}, '12345678901234567.5'), catalog)).toBeUndefined();
    // No console value for a deduplication period.
    expect(
      cantonConsoleSubmit(
        createIou({ deduplicationPeriod: { DeduplicationOffset: { value: 3 } } }),
        catalog,
      ),
    ).toBeUndefined();
    // A template the catalog has not decoded: its JSON values' types are unknown.
    expect(cantonConsoleSubmit(createIou(), { packages: [], templates: [] })).toBeUndefined();
    // No helper for create-and-exercise.
    expect(
      cantonConsoleSubmit(
        {
          commands: [
            {
              CreateAndExerciseCommand: {
                templateId: IOU,
                createArguments: {},
                choice: 'Iou_Split',
                choiceArgument: {},
              },
            },
          ],
          commandId: 'x',
          actAs: [ALICE],
        },
        catalog,
      ),
    ).toBeUndefined();
    // A field the template does not have.
    const extra = createIou();
    const [command] = extra.commands;
    if (command && 'CreateCommand' in command) {
      command.CreateCommand.createArguments = { issuer: ALICE, unknown: 1 };
    }
    expect(cantonConsoleSubmit(extra, catalog)).toBeUndefined();
  });

  it('escapes what would break out of a Scala string', () => {
    const text = cantonConsoleSubmit(createIou({ commandId: 'a"b\\c' }), catalog);
    expect(text).toContain('commandId = "a\\"b\\\\c"');
  });
});

describe('prepareCopyAs and executeCopyAs', () => {
  const request = createIou({ readAs: [BOB], userId: 'alice-user' });

  it('copies exactly the prepare request, and the console prepare with the same commands', () => {
    const copied = prepareCopyAs(request, catalog);
    expect(copied.request).toEqual(prepareRequest(request));
    expect(copied.request.path).toBe('/v2/interactive-submission/prepare');
    expect(copied.request.body).toMatchObject({
      commands: request.commands,
      actAs: request.actAs,
      verboseHashing: false,
    });
    const submitted = cantonConsoleSubmit(request, catalog) ?? '';
    const commands = /commands = (Seq\(.*\)), commandId/.exec(submitted)?.[1];
    expect(commands).toBeDefined();
    expect(copied.cantonConsole).toBe(
      `participant.ledger_api.interactive_submission.prepare(actAs = Seq(PartyId.tryFromProtoPrimitive("${ALICE}")), commands = ${commands ?? ''}, commandId = "${request.commandId}", readAs = Seq(PartyId.tryFromProtoPrimitive("${BOB}")), userId = "alice-user")`,
    );
  });

  it('copies the execute request with the prepared bytes as given, and no key', () => {
    const response = {
      preparedTransaction: 'CgQIARIA',
      preparedTransactionHash: 'qqqq',
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' as const,
    };
    const signature = {
      format: 'SIGNATURE_FORMAT_CONCAT',
      signature: 'c2ln',
      signedBy: '1220ab',
      signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
    };
    const copied = executeCopyAs({
      request,
      response,
      signatures: [{ party: ALICE, signatures: [signature] }],
      submissionId: 'sub-1',
    });
    expect(copied.cantonConsole).toBeUndefined();
    expect(copied.request).toEqual({
      method: 'POST',
      path: '/v2/interactive-submission/executeAndWaitForTransaction',
      body: {
        preparedTransaction: 'CgQIARIA',
        partySignatures: { signatures: [{ party: ALICE, signatures: [signature] }] },
        submissionId: 'sub-1',
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        userId: 'alice-user',
        transactionFormat: transactionRequestBody(request).transactionFormat,
      },
    });
    expect(toCurl(copied.request, 'http://console')).toContain('"preparedTransaction": "CgQIARIA"');
  });
});
