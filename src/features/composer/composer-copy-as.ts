import {
  findDataType,
  type DamlType,
  type PackageContents,
  type TypeConName,
} from '@/api/daml-lf-decoder';
import {
  submitRequest,
  type JsCommands,
  type LedgerCommand,
  type SubmitEndpoint,
} from '@/api/commands';
import { executeRequest, prepareRequest, type ExecuteInput } from '@/api/interactive-submission';
import {
  cantonConsoleCall,
  scalaPartyId,
  scalaString,
  type CopyAsCommands,
} from '@/lib/text/copy-as';
import { isNestedOptional, optionalInner } from './daml-value';
import { isRecord } from '@/lib/values/is-record';
import { choicesOf, resolveTemplate, type TemplateEntry } from '@/hooks/template-catalog';

/** What the console command needs of the catalog: templates and their packages' types. */
export type CopyAsCatalog = {
  templates: readonly TemplateEntry[];
  packages: readonly PackageContents[];
};

/**
 * "Copy as…" for a submission: curl of exactly the request Submit sends (the same
 * {@link submitRequest}, to the endpoint the next submit uses), and the Canton console command
 * where one says the same thing (see {@link cantonConsoleSubmit}).
 */
export function composerCopyAs(
  request: JsCommands,
  catalog: CopyAsCatalog,
  endpoint?: SubmitEndpoint,
): CopyAsCommands {
  const cantonConsole = cantonConsoleSubmit(request, catalog);
  return {
    request: submitRequest(request, endpoint),
    ...(cantonConsole === undefined ? {} : { cantonConsole }),
  };
}

const MAX_DEPTH = 16;

/**
 * The submission as `participant.ledger_api.commands.submit(actAs = …, commands = …)` with the
 * commands built by `ledger_api_utils.create(packageId, module, template, arguments)` and
 * `ledger_api_utils.exercise(packageId, module, template, choice, arguments, contractId)`
 * (Canton's console; `packageId` takes `#<package-name>` as the Ledger API does).
 *
 * Undefined where the console cannot say the same faithfully: create-and-exercise and
 * exercise-by-key (no such helpers), deduplication periods, a relative minimum ledger time and
 * disclosed contracts (no plain console values for them), templates the catalog has not decoded
 * (an untyped JSON value is ambiguous: "5" may be Text, Int64, Numeric or a party), and values
 * the helpers cannot build: contract ids, dates, enums, variants, maps, nested optionals, records
 * with type parameters, Numerics beyond what a Double carries exactly.
 */
export function cantonConsoleSubmit(
  request: JsCommands,
  catalog: CopyAsCatalog,
): string | undefined {
  if (
    request.deduplicationPeriod !== undefined ||
    request.minLedgerTimeRel !== undefined ||
    (request.disclosedContracts ?? []).length > 0
  ) {
    return undefined;
  }
  const commands = consoleCommands(request, catalog);
  if (commands === undefined) return undefined;
  return consoleSubmissionCall('ledger_api.commands.submit', request, commands, {
    workflowId: true,
  });
}

/**
 * `participant.<method>(actAs = …, commands = …, …)` with the request's parties, ids and minimum
 * ledger time; the workflow id only where the method takes one.
 */
function consoleSubmissionCall(
  method: string,
  request: JsCommands,
  commands: readonly string[],
  { workflowId }: { workflowId: boolean },
): string {
  const parties = (ids: readonly string[]) => `Seq(${ids.map(scalaPartyId).join(', ')})`;
  const readAs = request.readAs ?? [];
  return cantonConsoleCall(method, [
    ['actAs', parties(request.actAs)],
    ['commands', `Seq(${commands.join(', ')})`],
    ['workflowId', workflowId && request.workflowId ? scalaString(request.workflowId) : undefined],
    ['commandId', scalaString(request.commandId)],
    [
      'minLedgerTimeAbs',
      request.minLedgerTimeAbs
        ? `Some(java.time.Instant.parse(${scalaString(request.minLedgerTimeAbs)}))`
        : undefined,
    ],
    ['readAs', readAs.length > 0 ? parties(readAs) : undefined],
    ['userId', request.userId ? scalaString(request.userId) : undefined],
  ]);
}

function consoleCommands(request: JsCommands, catalog: CopyAsCatalog): string[] | undefined {
  const commands: string[] = [];
  for (const command of request.commands) {
    const rendered = consoleCommand(command, catalog);
    if (rendered === undefined) return undefined;
    commands.push(rendered);
  }
  return commands;
}

/**
 * "Copy as…" for Preview: curl of exactly the prepare request, and the Canton console's
 * `participant.ledger_api.interactive_submission.prepare(actAs = …, commands = …)` where the
 * commands can be said there (as for Submit; see {@link cantonConsoleSubmit}). Deduplication
 * belongs to execute, so it does not stand in the way here.
 */
export function prepareCopyAs(request: JsCommands, catalog: CopyAsCatalog): CopyAsCommands {
  const commands =
    request.minLedgerTimeRel !== undefined || (request.disclosedContracts ?? []).length > 0
      ? undefined
      : consoleCommands(request, catalog);
  const cantonConsole =
    commands === undefined
      ? undefined
      : consoleSubmissionCall('ledger_api.interactive_submission.prepare', request, commands, {
          workflowId: false,
        });
  return {
    request: prepareRequest(request),
    ...(cantonConsole === undefined ? {} : { cantonConsole }),
  };
}

/**
 * "Copy as…" for Sign and execute: curl of exactly the execute request, the prepared transaction
 * as prepare answered it and the signatures made so far (a signature not made yet is a
 * placeholder to replace). A signature is public; a private key never gets here. No Canton
 * console command: its `execute` takes protobuf objects a pasted line cannot build faithfully.
 */
export function executeCopyAs(input: ExecuteInput): CopyAsCommands {
  return { request: executeRequest(input) };
}

function consoleCommand(command: LedgerCommand, catalog: CopyAsCatalog): string | undefined {
  const resolve = (tycon: TypeConName) => findDataType(catalog.packages, tycon);
  if ('CreateCommand' in command) {
    const { templateId, createArguments } = command.CreateCommand;
    const target = templateTarget(templateId, catalog);
    if (!target) return undefined;
    const argumentsMap = recordMap(
      { kind: 'con', tycon: target.entry.template.tycon, args: [] },
      createArguments,
      resolve,
    );
    if (argumentsMap === undefined) return undefined;
    return `ledger_api_utils.create(${target.parts}, ${argumentsMap})`;
  }
  if ('ExerciseCommand' in command) {
    const { templateId, contractId, choice, choiceArgument } = command.ExerciseCommand;
    const target = templateTarget(templateId, catalog);
    if (!target) return undefined;
    const declared = choicesOf(target.entry, catalog.packages).find(
      (entry) => entry.choice.name === choice,
    );
    // An interface's choice is exercised through the interface id, which the helper cannot name.
    if (!declared || declared.interfaceId !== undefined) return undefined;
    const argumentsMap = recordMap(declared.choice.argType, choiceArgument, resolve);
    if (argumentsMap === undefined) return undefined;
    return `ledger_api_utils.exercise(${target.parts}, ${scalaString(choice)}, ${argumentsMap}, ${scalaString(contractId)})`;
  }
  return undefined;
}

/** `"#pkg", "Module", "Entity"` as the helpers take them, and the template's decoded entry. */
function templateTarget(templateId: string, catalog: CopyAsCatalog) {
  const entry = resolveTemplate(catalog.templates, templateId);
  const [packageRef, moduleName, entityName] = templateId.split(':');
  if (!entry || packageRef === undefined || moduleName === undefined || entityName === undefined) {
    return undefined;
  }
  return {
    entry,
    parts: [packageRef, moduleName, entityName].map(scalaString).join(', '),
  };
}

type Resolve = (tycon: TypeConName) => ReturnType<typeof findDataType>;

/**
 * A record value as the `Map[String, Any]` the helpers turn into a Ledger API record. Up to four
 * entries Scala's `Map` keeps their order; beyond that it is a hash map, so a `ListMap` keeps the
 * fields in the template's order.
 */
function recordMap(
  type: DamlType,
  value: unknown,
  resolve: Resolve,
  depth = 0,
): string | undefined {
  if (depth > MAX_DEPTH || type.kind !== 'con' || type.args.length > 0) return undefined;
  const dataType = resolve(type.tycon);
  if (dataType?.kind !== 'record' || dataType.params.length > 0 || !isRecord(value)) {
    return undefined;
  }
  const known = new Set(dataType.fields.map((field) => field.name));
  if (Object.keys(value).some((key) => !known.has(key))) return undefined;
  const entries: string[] = [];
  for (const field of dataType.fields) {
    // The JSON API lets trailing optional fields be left out: None, as it reads them.
    const fieldValue = field.name in value ? value[field.name] : undefined;
    if (fieldValue === undefined && optionalInner(field.type) === undefined) return undefined;
    const rendered = scalaValue(field.type, fieldValue ?? null, resolve, depth + 1);
    if (rendered === undefined) return undefined;
    entries.push(`${scalaString(field.name)} -> ${rendered}`);
  }
  if (entries.length === 0) return 'Map.empty[String, Any]';
  const map = entries.length > 4 ? 'scala.collection.immutable.ListMap' : 'Map';
  return `${map}(${entries.join(', ')})`;
}

const INT64 = /^-?\d{1,19}$/;
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A Numeric as a Scala Double literal, only where the helper's `s"$x"` gives back the same
 * number: at most 15 significant digits, and a magnitude Java prints without an exponent.
 */
function numericLiteral(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL.test(text)) return undefined;
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  if (digits.length > 15) return undefined;
  const number = Number(text);
  const magnitude = Math.abs(number);
  if (number !== 0 && (magnitude < 1e-3 || magnitude >= 1e7)) return undefined;
  const shortest = String(number);
  return shortest.includes('.') ? shortest : `${shortest}.0`;
}

function scalaValue(
  type: DamlType,
  value: unknown,
  resolve: Resolve,
  depth: number,
): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (type.kind === 'con') return recordMap(type, value, resolve, depth);
  if (type.kind !== 'prim') return undefined;
  switch (type.prim) {
    case 'TEXT':
      return typeof value === 'string' ? scalaString(value) : undefined;
    case 'PARTY':
      return typeof value === 'string' && value !== '' ? scalaPartyId(value) : undefined;
    case 'BOOL':
      return typeof value === 'boolean' ? String(value) : undefined;
    case 'INT64': {
      const text = typeof value === 'number' ? String(value) : value;
      if (typeof text !== 'string' || !INT64.test(text)) return undefined;
      const big = BigInt(text);
      return big <= INT64_MAX && big >= -INT64_MAX - 1n ? `${text}L` : undefined;
    }
    case 'NUMERIC':
      return numericLiteral(value);
    case 'TIMESTAMP':
      // The helper keeps milliseconds (Instant.toEpochMilli): finer times would change.
      return typeof value === 'string' &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(value)
        ? `java.time.Instant.parse(${scalaString(value)})`
        : undefined;
    case 'OPTIONAL': {
      const inner = type.args[0];
      if (!inner || isNestedOptional(type)) return undefined;
      if (value === null) return 'None';
      const rendered = scalaValue(inner, value, resolve, depth + 1);
      return rendered === undefined ? undefined : `Some(${rendered})`;
    }
    case 'LIST': {
      const inner = type.args[0];
      if (!inner || !Array.isArray(value)) return undefined;
      const items: string[] = [];
      for (const item of value) {
        const rendered = scalaValue(inner, item, resolve, depth + 1);
        if (rendered === undefined) return undefined;
        items.push(rendered);
      }
      return `Seq(${items.join(', ')})`;
    }
    default:
      return undefined;
  }
}
