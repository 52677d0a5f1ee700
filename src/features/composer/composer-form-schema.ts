import type { Path } from 'react-hook-form';
import { z } from 'zod';
import type { DeduplicationPeriod, JsCommands, LedgerCommand } from '@/api/commands';
import type { ApiError } from '@/lib/api-error';

// ── commands ───────────────────────────────────────────────────────────────────

export const COMMAND_KINDS = ['create', 'exercise', 'createAndExercise', 'exerciseByKey'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

export const COMMAND_KIND_LABELS: Record<CommandKind, string> = {
  create: 'Create',
  exercise: 'Exercise',
  createAndExercise: 'Create and exercise',
  exerciseByKey: 'Exercise by key',
};

export const commandUsesCreateArguments = (kind: CommandKind) =>
  kind === 'create' || kind === 'createAndExercise';
export const commandUsesChoice = (kind: CommandKind) => kind !== 'create';
export const commandUsesContractId = (kind: CommandKind) => kind === 'exercise';
export const commandUsesContractKey = (kind: CommandKind) => kind === 'exerciseByKey';

/** Template/choice/key arguments are kept as JSON text: the one value both editors share. */
const commandShape = z.object({
  kind: z.enum(COMMAND_KINDS),
  templateId: z.string(),
  contractId: z.string(),
  contractKey: z.string(),
  choice: z.string(),
  createArguments: z.string(),
  choiceArgument: z.string(),
});

const commandSchema = commandShape.superRefine((command, ctx) => {
  const problem = templateIdProblem(command.templateId);
  if (problem) ctx.addIssue({ code: 'custom', path: ['templateId'], message: problem });
  if (commandUsesContractId(command.kind) && command.contractId.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['contractId'], message: 'Required' });
  }
  if (commandUsesChoice(command.kind) && command.choice.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['choice'], message: 'Required' });
  }
  if (commandUsesCreateArguments(command.kind)) {
    const argumentProblem = jsonRecordProblem(command.createArguments);
    if (argumentProblem) {
      ctx.addIssue({ code: 'custom', path: ['createArguments'], message: argumentProblem });
    }
  }
  if (commandUsesChoice(command.kind)) {
    const argumentProblem = jsonRecordProblem(command.choiceArgument);
    if (argumentProblem) {
      ctx.addIssue({ code: 'custom', path: ['choiceArgument'], message: argumentProblem });
    }
  }
  if (commandUsesContractKey(command.kind)) {
    const keyProblem = jsonProblem(command.contractKey);
    if (keyProblem) ctx.addIssue({ code: 'custom', path: ['contractKey'], message: keyProblem });
  }
});

export type CommandValues = z.infer<typeof commandSchema>;

/** Why `id` is no `<package>:<Module>:<Entity>` template id, or undefined when it is one. */
export function templateIdProblem(id: string): string | undefined {
  if (id.trim() === '') return 'Required';
  const parts = id.split(':');
  if (parts.length !== 3 || parts.some((part) => part === '')) {
    return 'Use #<package-name>:<Module>:<Entity> or <package-id>:<Module>:<Entity>';
  }
  const [packageRef = ''] = parts;
  if (packageRef.startsWith('#')) {
    return packageRef.length > 1 ? undefined : 'The package name after # is missing';
  }
  return /^[0-9a-f]{64}$/.test(packageRef)
    ? undefined
    : 'A package id is 64 lowercase hex digits; use # before a package name';
}

/** Why `text` is not JSON, or undefined when it parses. */
export function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Daml records are JSON objects: why `text` is not one, or undefined. */
export function jsonRecordProblem(text: string): string | undefined {
  const problem = jsonProblem(text);
  if (problem) return problem;
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? undefined
    : 'A record argument is a JSON object: {"field": value, …}';
}

export function emptyCommand(kind: CommandKind = 'create'): CommandValues {
  return {
    kind,
    templateId: '',
    contractId: '',
    contractKey: 'null',
    choice: '',
    createArguments: '{}',
    choiceArgument: '{}',
  };
}

// ── identifiers ────────────────────────────────────────────────────────────────

/** Daml-LF `LedgerString`: command, workflow and submission ids. */
const LEDGER_STRING = /^[A-Za-z0-9#:\-_/ ]+$/;
export const MAX_LEDGER_STRING_LENGTH = 255;

export function ledgerStringProblem(value: string): string | undefined {
  if (value.length > MAX_LEDGER_STRING_LENGTH) {
    return `At most ${String(MAX_LEDGER_STRING_LENGTH)} characters`;
  }
  if (!LEDGER_STRING.test(value)) {
    return 'Use ASCII letters, digits, space and # : - _ /';
  }
  return undefined;
}

function partyProblem(party: string): string | undefined {
  if (party.length > 255) return 'A party id has at most 255 characters';
  if (!/^[A-Za-z0-9:\-_ ]+$/.test(party)) return `"${party}" is not a party id`;
  return undefined;
}

const partyListSchema = z.array(z.string()).superRefine((parties, ctx) => {
  for (const party of parties) {
    const problem = partyProblem(party);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return;
    }
  }
});

// ── the whole form ─────────────────────────────────────────────────────────────

export const DEDUPLICATION_KINDS = ['none', 'duration', 'offset'] as const;
export const MIN_LEDGER_TIME_KINDS = ['none', 'absolute', 'relative'] as const;

const disclosedContractShape = z.object({
  contractId: z.string(),
  templateId: z.string(),
  createdEventBlob: z.string(),
  synchronizerId: z.string(),
});

const disclosedContractSchema = disclosedContractShape.superRefine((contract, ctx) => {
  if (contract.createdEventBlob.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['createdEventBlob'], message: 'Required' });
  } else if (!/^[A-Za-z0-9+/]*={0,2}$/.test(contract.createdEventBlob.trim())) {
    ctx.addIssue({ code: 'custom', path: ['createdEventBlob'], message: 'Base64 expected' });
  }
  const problem = contract.templateId === '' ? undefined : templateIdProblem(contract.templateId);
  if (problem) ctx.addIssue({ code: 'custom', path: ['templateId'], message: problem });
});

export type DisclosedContractValues = z.infer<typeof disclosedContractSchema>;

const nonNegativeNumber = (text: string) => text.trim() !== '' && Number(text) >= 0;

/**
 * The form's shape without its rules: what a half-written draft must look like to be restored
 * (composer-draft.ts). `composerSchema` adds the rules on top.
 */
export const composerShape = z.object({
  commands: z.array(commandShape),
  actAs: z.array(z.string()),
  readAs: z.array(z.string()),
  userId: z.string(),
  commandId: z.string(),
  workflowId: z.string(),
  deduplication: z.object({
    kind: z.enum(DEDUPLICATION_KINDS),
    seconds: z.string(),
    offset: z.string(),
  }),
  minLedgerTime: z.object({
    kind: z.enum(MIN_LEDGER_TIME_KINDS),
    absolute: z.string(),
    relativeSeconds: z.string(),
  }),
  disclosedContracts: z.array(disclosedContractShape),
});

export type ComposerSchemaOptions = {
  /** No user behind the session (no auth): the participant cannot default the user id (§4.2). */
  userIdRequired: boolean;
};

export function composerSchema({ userIdRequired }: ComposerSchemaOptions) {
  return composerShape
    .extend({
      commands: z.array(commandSchema).min(1, 'Add at least one command'),
      actAs: partyListSchema.min(1, 'At least one party to act as'),
      readAs: partyListSchema,
      disclosedContracts: z.array(disclosedContractSchema),
    })
    .superRefine((values, ctx) => {
      if (values.userId === '' && userIdRequired) {
        ctx.addIssue({
          code: 'custom',
          path: ['userId'],
          message: 'Required: the participant has no user behind this session to default it to',
        });
      }
      if (values.commandId === '') {
        ctx.addIssue({ code: 'custom', path: ['commandId'], message: 'Required' });
      } else {
        const problem = ledgerStringProblem(values.commandId);
        if (problem) ctx.addIssue({ code: 'custom', path: ['commandId'], message: problem });
      }
      if (values.workflowId !== '') {
        const problem = ledgerStringProblem(values.workflowId);
        if (problem) ctx.addIssue({ code: 'custom', path: ['workflowId'], message: problem });
      }
      const { deduplication, minLedgerTime } = values;
      if (deduplication.kind === 'duration' && !nonNegativeNumber(deduplication.seconds)) {
        ctx.addIssue({
          code: 'custom',
          path: ['deduplication', 'seconds'],
          message: 'A number of seconds, 0 or more',
        });
      }
      if (deduplication.kind === 'offset' && !/^\d+$/.test(deduplication.offset.trim())) {
        ctx.addIssue({
          code: 'custom',
          path: ['deduplication', 'offset'],
          message: 'An offset: a whole number, 0 or more',
        });
      }
      if (minLedgerTime.kind === 'absolute' && Number.isNaN(Date.parse(minLedgerTime.absolute))) {
        ctx.addIssue({
          code: 'custom',
          path: ['minLedgerTime', 'absolute'],
          message: 'An ISO 8601 time, e.g. 2030-01-01T00:00:00Z',
        });
      }
      if (minLedgerTime.kind === 'relative' && !nonNegativeNumber(minLedgerTime.relativeSeconds)) {
        ctx.addIssue({
          code: 'custom',
          path: ['minLedgerTime', 'relativeSeconds'],
          message: 'A number of seconds, 0 or more',
        });
      }
    });
}

export type ComposerValues = z.infer<ReturnType<typeof composerSchema>>;

export function emptyComposerValues(
  defaults: { userId?: string; actAs?: string[]; commandId?: string } = {},
): ComposerValues {
  return {
    commands: [emptyCommand()],
    actAs: defaults.actAs ?? [],
    readAs: [],
    userId: defaults.userId ?? '',
    commandId: defaults.commandId ?? newCommandId(),
    workflowId: '',
    deduplication: { kind: 'none', seconds: '', offset: '' },
    minLedgerTime: { kind: 'none', absolute: '', relativeSeconds: '' },
    disclosedContracts: [],
  };
}

/** A fresh command id: a UUID, which is a valid LedgerString. */
export function newCommandId(): string {
  return globalThis.crypto.randomUUID();
}

// ── mappers ────────────────────────────────────────────────────────────────────

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

// ── server errors → fields ─────────────────────────────────────────────────────

/** `commands[2]` in a cause or a plain-text decode failure names the third command. */
function commandIndexInCause(cause: string, count: number): number | undefined {
  const match = /commands\[(\d+)\]/.exec(cause);
  if (!match) return count === 1 ? 0 : undefined;
  const index = Number(match[1]);
  return index < count ? index : undefined;
}

/** `<pkg>:<Module>:<Entity>` → `<Module>:<Entity>`: the resolved id names the package by id. */
const qualifiedName = (templateId: string) => templateId.split(':').slice(1).join(':');

/**
 * The form field a submission error concerns (issue 6: a bad template on that command's template
 * field, missing authorization on actAs, argument errors on the arguments); undefined puts it at
 * the top of the form.
 */
export function composerErrorField(
  error: ApiError,
  values: ComposerValues,
  /** The signed-in user, the one a 403 is about unless the request named another (§7.5). */
  callerUserId?: string,
): Path<ComposerValues> | undefined {
  const { code, cause } = error.body;
  const count = values.commands.length;
  const resources = error.body.resources ?? [];
  const commandField = (
    index: number | undefined,
    field: keyof CommandValues,
  ): Path<ComposerValues> | undefined =>
    index === undefined || index < 0
      ? undefined
      : (`commands.${String(index)}.${field}` as `commands.${number}.${keyof CommandValues}`);

  if (code === 'TEMPLATES_OR_INTERFACES_NOT_FOUND') {
    const missing = resources
      .filter(([kind]) => kind === 'TEMPLATE_ID')
      .map(([, id]) => qualifiedName(id ?? ''));
    const index = values.commands.findIndex((command) =>
      missing.includes(qualifiedName(command.templateId.trim())),
    );
    return commandField(index >= 0 ? index : commandIndexInCause(cause, count), 'templateId');
  }
  if (code === 'JSON_API_PACKAGE_SELECTION_FAILED') {
    return commandField(commandIndexInCause(cause, count), 'templateId');
  }
  // Tapir's decode failure: `… at 'commands[0].CreateCommand.templateId'`.
  const decodePath = /at '([^']+)'\)?$/.exec(cause)?.[1];
  if (decodePath && error.status === 400 && code.startsWith('HTTP_')) {
    const index = commandIndexInCause(decodePath, count);
    if (decodePath.endsWith('.templateId')) return commandField(index, 'templateId');
    if (decodePath.endsWith('.contractId')) return commandField(index, 'contractId');
    if (decodePath.endsWith('.choice')) return commandField(index, 'choice');
    if (decodePath === 'commandId') return 'commandId';
    if (decodePath.startsWith('actAs')) return 'actAs';
  }
  if (/Invalid template:.* or choice:/.test(cause)) {
    const choice = /or choice:(\S+)/.exec(cause)?.[1];
    const index = values.commands.findIndex((command) => command.choice.trim() === choice);
    return commandField(index >= 0 ? index : commandIndexInCause(cause, count), 'choice');
  }
  if (code === 'CONTRACT_NOT_FOUND' || code === 'CONTRACT_NOT_ACTIVE') {
    const contractIds = resources.filter(([kind]) => kind === 'CONTRACT_ID').map(([, id]) => id);
    const index = values.commands.findIndex(
      (command) => command.kind === 'exercise' && contractIds.includes(command.contractId.trim()),
    );
    return index >= 0 ? commandField(index, 'contractId') : undefined;
  }
  if (code === 'CONTRACT_KEY_NOT_FOUND') {
    return commandField(
      values.commands.findIndex((command) => command.kind === 'exerciseByKey'),
      'contractKey',
    );
  }
  if (error.status === 403) {
    // A userId other than the token's own is refused as a whole (§7.5); otherwise it is a party.
    const userId = values.userId.trim();
    const namesAnotherUser = userId !== '' && callerUserId !== undefined && userId !== callerUserId;
    return namesAnotherUser || /user_?id/i.test(cause) ? 'userId' : 'actAs';
  }
  if (code === 'DAML_AUTHORIZATION_ERROR') return 'actAs';
  if (code === 'DUPLICATE_COMMAND' || code === 'SUBMISSION_ALREADY_IN_FLIGHT') return 'commandId';
  if (cause.includes('missing a user-id') || cause.includes('user_id')) return 'userId';
  if (code === 'MISSING_FIELD' && cause.includes('act_as')) return 'actAs';
  if (
    code === 'COMMAND_PREPROCESSING_FAILED' ||
    /Unexpected fields|Missing non-optional fields|Invalid value at|variant/i.test(cause)
  ) {
    const index = commandIndexInCause(cause, count);
    if (index === undefined) return undefined;
    const command = values.commands[index];
    if (!command) return undefined;
    if (cause.includes('choiceArgument')) return commandField(index, 'choiceArgument');
    if (cause.includes('createArguments') || command.kind === 'create') {
      return commandField(index, 'createArguments');
    }
    return commandField(index, 'choiceArgument');
  }
  return undefined;
}
