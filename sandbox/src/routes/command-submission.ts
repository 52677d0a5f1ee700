import { z } from 'zod';
import { defaultUserId } from '../auth/authorizer';
import type { Claims } from '../auth/claims';
import {
  SandboxError,
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import { list, str } from '../http/decode';
import type { LedgerState } from '../ledger-state';
import type { Command } from '../ledger/interpreter';
import type { Deduplication } from '../ledger/ledger';
import { decodeCreatedEventBlob } from '../ledger/projection';
import { splitTemplateId } from '../ledger/template-resolver';
import { isWellFormedContractId, type CreateNode } from '../ledger/transaction';
import { ledgerStringProblem, partyProblem } from '../validation/identifiers';

/**
 * What the command service and the interactive submission service share at the edge: the
 * JsCommand decoders, JSON-layer template resolution, the user id rule, and the validation of
 * the fields both requests have (CommandsValidator), so a prepare interprets exactly what a
 * submit would.
 */

/** The JSON layer splits identifiers on `:` and wants exactly three parts (§0.7, §1.9). */
const templateId = z.string().superRefine((value, ctx) => {
  if (!splitTemplateId(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `Invalid identifier format (${value}) not matching the expected format (<package>:<moduleName>:<entityName>)`,
    });
  }
});

export const commandSchema = z.union([
  z.object({
    CreateCommand: z.object({ templateId, createArguments: z.unknown() }),
  }),
  z.object({
    ExerciseCommand: z.object({
      templateId,
      contractId: str(),
      choice: str(),
      choiceArgument: z.unknown(),
    }),
  }),
  z.object({
    CreateAndExerciseCommand: z.object({
      templateId,
      createArguments: z.unknown(),
      choice: str(),
      choiceArgument: z.unknown(),
    }),
  }),
  z.object({
    ExerciseByKeyCommand: z.object({
      templateId,
      contractKey: z.unknown(),
      choice: str(),
      choiceArgument: z.unknown(),
    }),
  }),
]);
export type WireCommand = z.infer<typeof commandSchema>;

export const durationSchema = z.object({
  seconds: z.number().int().default(0),
  nanos: z.number().int().default(0),
});

export const deduplicationPeriodSchema = z.union([
  z.object({ DeduplicationDuration: z.object({ value: durationSchema }) }),
  z.object({ DeduplicationOffset: z.object({ value: z.number().int() }) }),
  z.object({ Empty: z.object({}) }),
]);
export type WireDeduplicationPeriod = z.infer<typeof deduplicationPeriodSchema>;

export const disclosedContractSchema = z.object({
  templateId: str(),
  contractId: str(),
  createdEventBlob: str(),
  synchronizerId: str(),
});
export type WireDisclosedContract = z.infer<typeof disclosedContractSchema>;

/** Decoded like JsCommands decodes them (the sandbox keeps no key cache to prefetch into). */
export const prefetchContractKeysSchema = list(z.unknown());

/** JSON-layer template resolution, before the ledger sees the command (§7.1). */
export function resolveCommands(state: LedgerState, commands: readonly WireCommand[]): Command[] {
  return commands.map((wire): Command => {
    if ('CreateCommand' in wire) {
      const { templateId: id, createArguments } = wire.CreateCommand;
      return { kind: 'create', template: state.templates.resolve(id), argument: createArguments };
    }
    if ('ExerciseCommand' in wire) {
      const { templateId: id, contractId, choice, choiceArgument } = wire.ExerciseCommand;
      const exercised = state.templates.resolveExercised(id);
      return exercised.kind === 'interface'
        ? {
            kind: 'exerciseInterface',
            iface: exercised.iface,
            contractId,
            choice,
            argument: choiceArgument,
          }
        : {
            kind: 'exercise',
            template: exercised.template,
            contractId,
            choice,
            argument: choiceArgument,
          };
    }
    if ('CreateAndExerciseCommand' in wire) {
      const {
        templateId: id,
        createArguments,
        choice,
        choiceArgument,
      } = wire.CreateAndExerciseCommand;
      return {
        kind: 'createAndExercise',
        template: state.templates.resolve(id),
        createArgument: createArguments,
        choice,
        choiceArgument,
      };
    }
    const { templateId: id, contractKey, choice, choiceArgument } = wire.ExerciseByKeyCommand;
    return {
      kind: 'exerciseByKey',
      template: state.templates.resolve(id),
      key: contractKey,
      choice,
      argument: choiceArgument,
    };
  });
}

/** The token's user stands in for an empty userId; any other user is refused (§4.6). */
export function effectiveUserId(claims: Claims, requested: string): string {
  const userId = defaultUserId(claims, requested);
  if (claims.userId !== undefined && userId !== claims.userId) {
    throw permissionDenied(
      `user_id '${requested}' of the request does not match the user '${claims.userId}' of the token`,
    );
  }
  return userId;
}

const MICROS_PER_SECOND = 1_000_000n;
export const durationMicros = ({ seconds, nanos }: { seconds: number; nanos: number }) =>
  BigInt(seconds) * MICROS_PER_SECOND + BigInt(Math.trunc(nanos / 1000));

export function deduplicationOf(period: WireDeduplicationPeriod | null | undefined): Deduplication {
  if (!period || 'Empty' in period) return { kind: 'default' };
  if ('DeduplicationOffset' in period) {
    const offset = period.DeduplicationOffset.value;
    if (offset < 0) {
      throw new SandboxError(
        'NEGATIVE_OFFSET',
        `Offset ${String(offset)} in deduplication_period is a negative integer: the offset has to be either a positive integer, or zero`,
      );
    }
    return { kind: 'offset', offset };
  }
  const micros = durationMicros(period.DeduplicationDuration.value);
  if (micros < 0n) {
    throw invalidField('deduplication_period', 'Duration must be positive');
  }
  return { kind: 'duration', micros };
}

/** A timestamp field as microseconds since the epoch. */
export function timestampMicros(field: string, value: string): bigint {
  const millis = Date.parse(value);
  if (Number.isNaN(millis)) throw invalidField(field, `Invalid timestamp ${value}`);
  return BigInt(millis) * 1000n;
}

/** The lower bound for the ledger time, absolute or relative to `now` (never both). */
export function minLedgerTimeOf(
  absolute: string | null | undefined,
  relative: { seconds: number; nanos: number } | null | undefined,
  now: bigint,
): bigint | null {
  if (absolute && relative) {
    throw invalidArgument('min_ledger_time_abs and min_ledger_time_rel cannot both be set');
  }
  if (absolute) return timestampMicros('min_ledger_time_abs', absolute);
  if (relative) return now + durationMicros(relative);
  return null;
}

/**
 * Disclosed contracts, authenticated: on a real participant the contract id is a hash over the
 * contract's content, so a blob cannot claim other signatories or arguments. The sandbox is the
 * only participant there is, so every genuine contract is in its store: the blob must match it.
 */
export function disclosedOf(
  state: LedgerState,
  disclosedContracts: readonly WireDisclosedContract[],
): Map<string, CreateNode> {
  const disclosed = new Map<string, CreateNode>();
  disclosedContracts.forEach((wire, i) => {
    const field = `disclosed_contracts[${String(i)}]`;
    if (wire.createdEventBlob === '') throw missingField(`${field}.created_event_blob`);
    const decoded = decodeCreatedEventBlob(wire.createdEventBlob);
    if (!decoded) {
      throw invalidField(`${field}.created_event_blob`, 'Unable to decode the created event blob');
    }
    const { node } = decoded;
    if (wire.contractId !== '' && wire.contractId !== node.contractId) {
      throw invalidArgument(
        `Mismatch between DisclosedContract.contract_id (${wire.contractId}) and the contract id in created_event_blob (${node.contractId})`,
      );
    }
    if (wire.templateId !== '' && wire.templateId !== node.templateId) {
      throw invalidArgument(
        `Mismatch between DisclosedContract.template_id (${wire.templateId}) and the template id in created_event_blob (${node.templateId})`,
      );
    }
    const stored = state.history.contract(node.contractId)?.node;
    if (!stored || JSON.stringify(stored) !== JSON.stringify(node)) {
      throw invalidArgument(
        `Disclosed contract ${node.contractId} failed authentication: its created_event_blob does not match the contract with that id`,
      );
    }
    disclosed.set(stored.contractId, stored);
  });
  return disclosed;
}

/** The fields a submission and a prepare request share, as CommandsValidator checks them. */
export type CommandFields = {
  commandId: string;
  /** Absent from a prepare request. */
  workflowId?: string;
  /** Absent from a prepare request. */
  submissionId?: string;
  commands: readonly WireCommand[];
  actAs: readonly string[];
  readAs: readonly string[];
  synchronizerId: string;
};

/** Request validation after authorization (§7.1), in the real server's order. */
export function validateCommandFields(state: LedgerState, body: CommandFields) {
  if (body.commandId === '') throw missingField('command_id');
  const commandIdProblem = ledgerStringProblem(body.commandId);
  if (commandIdProblem) throw invalidField('command_id', commandIdProblem);
  if (body.workflowId) {
    const problem = ledgerStringProblem(body.workflowId);
    if (problem) throw invalidField('workflow_id', problem);
  }
  if (body.submissionId) {
    const problem = ledgerStringProblem(body.submissionId);
    if (problem) throw invalidField('submission_id', problem);
  }
  if (body.commands.length === 0) throw missingField('commands');
  if (body.actAs.length === 0) throw missingField('party or act_as');
  for (const party of [...body.actAs, ...body.readAs]) {
    const problem = partyProblem(party);
    if (problem) throw invalidArgument(`Invalid party: ${problem}`);
  }
  for (const wire of body.commands) {
    const exercised = 'ExerciseCommand' in wire ? wire.ExerciseCommand : undefined;
    if (exercised) {
      if (exercised.contractId === '') throw missingField('contract_id');
      if (!isWellFormedContractId(exercised.contractId)) {
        throw invalidField('contract_id', `cannot parse ContractId "${exercised.contractId}"`);
      }
    }
    const withChoice =
      'ExerciseCommand' in wire
        ? wire.ExerciseCommand
        : 'CreateAndExerciseCommand' in wire
          ? wire.CreateAndExerciseCommand
          : 'ExerciseByKeyCommand' in wire
            ? wire.ExerciseByKeyCommand
            : undefined;
    if (withChoice?.choice === '') throw missingField('choice');
  }
  if (body.synchronizerId !== '' && !state.synchronizerIds.includes(body.synchronizerId)) {
    throw invalidArgument(
      `The prescribed synchronizer ${body.synchronizerId} is not connected to this participant`,
    );
  }
}
