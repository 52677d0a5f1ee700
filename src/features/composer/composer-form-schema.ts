import {
  isValidIdString,
  LEDGER_STRING,
  PARTY_STRING,
} from '@ledger-console/participant/identifiers';
import { z } from 'zod';
import { describeError } from '@/lib/errors/api-error';
import { isRecord } from '@/lib/values/is-record';

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
    return `Not valid JSON: ${describeError(error).message}`;
  }
}

/** Daml records are JSON objects: why `text` is not one, or undefined. */
export function jsonRecordProblem(text: string): string | undefined {
  const problem = jsonProblem(text);
  if (problem) return problem;
  const value = JSON.parse(text) as unknown;
  return isRecord(value) ? undefined : 'A record argument is a JSON object: {"field": value, …}';
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
export const MAX_LEDGER_STRING_LENGTH = LEDGER_STRING.maxLength;

export function ledgerStringProblem(value: string): string | undefined {
  if (value.length > MAX_LEDGER_STRING_LENGTH) {
    return `At most ${String(MAX_LEDGER_STRING_LENGTH)} characters`;
  }
  if (!isValidIdString(LEDGER_STRING, value)) {
    return 'Use ASCII letters, digits, space and . # : - _ /';
  }
  return undefined;
}

function partyProblem(party: string): string | undefined {
  if (party.length > PARTY_STRING.maxLength) {
    return `A party id has at most ${String(PARTY_STRING.maxLength)} characters`;
  }
  if (!isValidIdString(PARTY_STRING, party)) return `"${party}" is not a party id`;
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
