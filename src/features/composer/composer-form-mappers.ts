import type { DeduplicationPeriod, JsCommands, LedgerCommand } from '@/api/commands';
import { emptyCommand, type CommandValues, type ComposerValues } from './composer-form-schema';

/** Seconds (possibly fractional) as a protobuf Duration. */
export function toDuration(secondsText: string): { seconds: number; nanos: number } {
  const total = Number(secondsText);
  const seconds = Math.floor(total);
  return { seconds, nanos: Math.round((total - seconds) * 1e9) };
}

function fromDuration(duration: { seconds: number; nanos: number }): string {
  return String(duration.seconds + duration.nanos / 1e9);
}

function toLedgerCommand(command: CommandValues): LedgerCommand {
  const templateId = command.templateId.trim();
  const parse = (text: string) => JSON.parse(text) as unknown;
  switch (command.kind) {
    case 'create':
      return { CreateCommand: { templateId, createArguments: parse(command.createArguments) } };
    case 'exercise':
      return {
        ExerciseCommand: {
          templateId,
          contractId: command.contractId.trim(),
          choice: command.choice.trim(),
          choiceArgument: parse(command.choiceArgument),
        },
      };
    case 'createAndExercise':
      return {
        CreateAndExerciseCommand: {
          templateId,
          createArguments: parse(command.createArguments),
          choice: command.choice.trim(),
          choiceArgument: parse(command.choiceArgument),
        },
      };
    case 'exerciseByKey':
      return {
        ExerciseByKeyCommand: {
          templateId,
          contractKey: parse(command.contractKey),
          choice: command.choice.trim(),
          choiceArgument: parse(command.choiceArgument),
        },
      };
  }
}

function toDeduplicationPeriod({
  kind,
  seconds,
  offset,
}: ComposerValues['deduplication']): DeduplicationPeriod | undefined {
  if (kind === 'duration') {
    return { DeduplicationDuration: { value: toDuration(seconds) } };
  }
  if (kind === 'offset') return { DeduplicationOffset: { value: Number(offset.trim()) } };
  return undefined;
}

/** The request for validated form values; optional keys only when set. */
export function toJsCommands(values: ComposerValues): JsCommands {
  const deduplicationPeriod = toDeduplicationPeriod(values.deduplication);
  const { minLedgerTime } = values;
  return {
    commands: values.commands.map(toLedgerCommand),
    commandId: values.commandId,
    actAs: [...values.actAs],
    ...(values.readAs.length > 0 ? { readAs: [...values.readAs] } : {}),
    ...(values.userId === '' ? {} : { userId: values.userId }),
    ...(values.workflowId === '' ? {} : { workflowId: values.workflowId }),
    ...(deduplicationPeriod ? { deduplicationPeriod } : {}),
    ...(minLedgerTime.kind === 'absolute'
      ? { minLedgerTimeAbs: new Date(minLedgerTime.absolute).toISOString() }
      : {}),
    ...(minLedgerTime.kind === 'relative'
      ? { minLedgerTimeRel: toDuration(minLedgerTime.relativeSeconds) }
      : {}),
    ...(values.disclosedContracts.length > 0
      ? {
          disclosedContracts: values.disclosedContracts.map((contract) => ({
            createdEventBlob: contract.createdEventBlob.trim(),
            ...(contract.contractId === '' ? {} : { contractId: contract.contractId.trim() }),
            ...(contract.templateId === '' ? {} : { templateId: contract.templateId.trim() }),
            ...(contract.synchronizerId === ''
              ? {}
              : { synchronizerId: contract.synchronizerId.trim() }),
          })),
        }
      : {}),
  };
}

const json = (value: unknown) => JSON.stringify(value ?? null, null, 2);

function fromLedgerCommand(command: LedgerCommand): CommandValues {
  if ('CreateCommand' in command) {
    const { templateId, createArguments } = command.CreateCommand;
    return { ...emptyCommand('create'), templateId, createArguments: json(createArguments) };
  }
  if ('ExerciseCommand' in command) {
    const { templateId, contractId, choice, choiceArgument } = command.ExerciseCommand;
    return {
      ...emptyCommand('exercise'),
      templateId,
      contractId,
      choice,
      choiceArgument: json(choiceArgument),
    };
  }
  if ('CreateAndExerciseCommand' in command) {
    const { templateId, createArguments, choice, choiceArgument } =
      command.CreateAndExerciseCommand;
    return {
      ...emptyCommand('createAndExercise'),
      templateId,
      createArguments: json(createArguments),
      choice,
      choiceArgument: json(choiceArgument),
    };
  }
  const { templateId, contractKey, choice, choiceArgument } = command.ExerciseByKeyCommand;
  return {
    ...emptyCommand('exerciseByKey'),
    templateId,
    contractKey: json(contractKey),
    choice,
    choiceArgument: json(choiceArgument),
  };
}

/** A sent request back in the form (history "edit"), with `commandId` as given. */
export function fromJsCommands(
  commands: JsCommands,
  commandId = commands.commandId,
): ComposerValues {
  const period = commands.deduplicationPeriod;
  return {
    commands: commands.commands.map(fromLedgerCommand),
    actAs: [...commands.actAs],
    readAs: [...(commands.readAs ?? [])],
    userId: commands.userId ?? '',
    commandId,
    workflowId: commands.workflowId ?? '',
    deduplication:
      period && 'DeduplicationDuration' in period
        ? {
            kind: 'duration',
            seconds: fromDuration(period.DeduplicationDuration.value),
            offset: '',
          }
        : period && 'DeduplicationOffset' in period
          ? { kind: 'offset', seconds: '', offset: String(period.DeduplicationOffset.value) }
          : { kind: 'none', seconds: '', offset: '' },
    minLedgerTime: commands.minLedgerTimeAbs
      ? { kind: 'absolute', absolute: commands.minLedgerTimeAbs, relativeSeconds: '' }
      : commands.minLedgerTimeRel
        ? {
            kind: 'relative',
            absolute: '',
            relativeSeconds: fromDuration(commands.minLedgerTimeRel),
          }
        : { kind: 'none', absolute: '', relativeSeconds: '' },
    disclosedContracts: (commands.disclosedContracts ?? []).map((contract) => ({
      contractId: contract.contractId ?? '',
      templateId: contract.templateId ?? '',
      createdEventBlob: contract.createdEventBlob,
      synchronizerId: contract.synchronizerId ?? '',
    })),
  };
}

/** `<pkg>:<Module>:<Entity>` → `<Module>:<Entity>`, what both forms of a template id share. */
const qualifiedTemplateName = (templateId: string) =>
  templateId.trim().split(':').slice(1).join(':');

/**
 * A template id from a result (the participant always answers in the package-id form) in the form
 * the user chose for the request: the very id typed for that template, else — when the user wrote
 * package names (`#name:Module:Entity`) — the package-name form of the same template, else as given.
 */
export function templateIdInChosenForm(
  templateId: string,
  chosen: readonly string[],
  templates: readonly { byId: string; byName: string }[],
): string {
  const name = qualifiedTemplateName(templateId);
  const typed = chosen.map((id) => id.trim());
  const same = typed.find((id) => qualifiedTemplateName(id) === name);
  if (same !== undefined) {
    if (same.startsWith('#')) return same;
    if (same === templateId) return same;
  }
  if (typed.some((id) => id.startsWith('#'))) {
    const entry = templates.find((candidate) => candidate.byId === templateId);
    if (entry) return entry.byName;
  }
  return templateId;
}

/** The template ids a request names, as typed. */
export function requestTemplateIds(request: JsCommands): string[] {
  return request.commands.map((command) => fromLedgerCommand(command).templateId);
}
