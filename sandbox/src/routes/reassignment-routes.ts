import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import { canActAs } from '../auth/claims';
import {
  SandboxError,
  invalidField,
  missingField,
  permissionDenied,
} from '../errors/sandbox-error';
import { list, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import { eventFormatSchema } from '../http/stream-requests';
import type { LedgerState } from '../ledger-state';
import type { EventFilter } from '../ledger/event-filter';
import { toEventFilter, type EventFormat } from '../ledger/event-format';
import { toJsReassignment } from '../ledger/projection';
import {
  isWellFormedReassignmentId,
  type ReassignmentCommand,
  type ReassignmentRequest,
} from '../ledger/reassignment';
import { isWellFormedContractId, type ReassignmentRecord } from '../ledger/transaction';
import { requireReadForEventFormat } from '../ledger/update-stream';
import {
  isValidUserId,
  ledgerStringProblem,
  partyProblem,
  userIdRegexMessage,
} from '../validation/identifiers';
import { splitUniqueIdentifier } from '@ledger-console/participant/unique-identifier';
import { effectiveUserId } from './command-submission';

/**
 * `/v2/commands/submit-and-wait-for-reassignment` and `/v2/commands/async/submit-reassignment`:
 * unassign contracts from one synchronizer to another, or assign them there. The JSON layer
 * passes the request to gRPC unchanged (JsCommandService), so everything here is the command
 * service's: authorization, then validation (CommandsValidator.validateReassignmentCommands),
 * then the sync service (ledger/reassignment.ts).
 */

// ── Request shapes (ReassignmentCommands, decoded relaxed) ──

const synchronizerPair = { source: str(), target: str() };

const reassignmentCommand = z.object({
  command: z
    .union([
      z.object({
        UnassignCommand: z.object({ value: z.object({ contractId: str(), ...synchronizerPair }) }),
      }),
      z.object({
        AssignCommand: z.object({
          value: z.object({ reassignmentId: str(), ...synchronizerPair }),
        }),
      }),
      z.object({ Empty: z.object({}) }),
    ])
    .default({ Empty: {} }),
});

const reassignmentCommandsSchema = z.object({
  workflowId: str(),
  userId: str(),
  commandId: str(),
  submitter: str(),
  submissionId: str(),
  commands: list(reassignmentCommand),
});
type ReassignmentCommands = z.infer<typeof reassignmentCommandsSchema>;

const submitAndWaitRequest = z.object({
  reassignmentCommands: message(reassignmentCommandsSchema),
  eventFormat: message(eventFormatSchema),
});

const submitRequest = z.object({ reassignmentCommands: message(reassignmentCommandsSchema) });

// ── Validation ──

/** FieldValidator.requireSynchronizerId: present and a unique identifier. */
function synchronizerIdOf(value: string, field: string): string {
  if (value === '') throw missingField(field);
  const parts = splitUniqueIdentifier(value);
  if (!parts || parts.identifier === '' || parts.namespace === '') {
    throw invalidField(
      field,
      `Invalid unique identifier \`${value}\`: expected <identifier>::<namespace>`,
    );
  }
  return value;
}

/** CommandsValidator.validateReassignmentCommands, field by field in its order. */
function validateCommands(
  body: ReassignmentCommands,
  userId: string,
): Omit<ReassignmentRequest, 'traceparent'> {
  const submitterProblem = partyProblem(body.submitter);
  if (submitterProblem) throw invalidField('submitter', submitterProblem);
  if (userId === '') throw missingField('user_id');
  if (!isValidUserId(userId)) throw invalidField('user_id', userIdRegexMessage(userId));
  const commandIdProblem = ledgerStringProblem(body.commandId);
  if (commandIdProblem) throw invalidField('command_id', commandIdProblem);
  // An empty submission id was already replaced by a generated one.
  const submissionId = body.submissionId === '' ? randomUUID() : body.submissionId;
  const submissionIdProblem = ledgerStringProblem(submissionId);
  if (submissionIdProblem) throw invalidField('submission_id', submissionIdProblem);
  if (body.workflowId !== '') {
    const problem = ledgerStringProblem(body.workflowId);
    if (problem) throw invalidField('workflow_id', problem);
  }
  const commands = body.commands.map(({ command }): ReassignmentCommand => {
    if ('Empty' in command) throw missingField('command');
    if ('AssignCommand' in command) {
      const { reassignmentId, source, target } = command.AssignCommand.value;
      const checked = {
        source: synchronizerIdOf(source, 'source'),
        target: synchronizerIdOf(target, 'target'),
      };
      if (!isWellFormedReassignmentId(reassignmentId)) {
        throw invalidField('reassignment_id', 'Invalid reassignment ID');
      }
      return { kind: 'assign', reassignmentId, ...checked };
    }
    const { contractId, source, target } = command.UnassignCommand.value;
    const checked = {
      source: synchronizerIdOf(source, 'source'),
      target: synchronizerIdOf(target, 'target'),
    };
    if (contractId === '') throw missingField('contract_id');
    if (!isWellFormedContractId(contractId)) {
      throw invalidField('contract_id', `cannot parse ContractId "${contractId}"`);
    }
    return { kind: 'unassign', contractId, ...checked };
  });
  return {
    submitter: body.submitter,
    userId,
    commandId: body.commandId,
    workflowId: body.workflowId,
    submissionId,
    commands,
  };
}

/**
 * Everything from the body to the committed reassignment: the submission claims (the user id
 * as for commands, ActAs for the submitter), `extraClaims`, validation, the sync service.
 */
function submitReassignment(
  c: SandboxContext,
  state: LedgerState,
  body: ReassignmentCommands | null | undefined,
  extraClaims?: (claims: ReturnType<typeof requireAuthenticated>) => void,
  validateFormat?: () => void,
): ReassignmentRecord {
  const claims = requireAuthenticated(c.get('caller'));
  const userId = effectiveUserId(claims, body?.userId ?? '');
  if (body && !canActAs(claims, body.submitter)) {
    throw permissionDenied(`Claims do not authorize to act as party '${body.submitter}'`);
  }
  extraClaims?.(claims);
  if (!body) throw missingField('reassignment_commands');
  validateFormat?.();
  const request: ReassignmentRequest = {
    ...validateCommands(body, userId),
    traceparent: `00-${c.get('traceId')}-${randomBytes(8).toString('hex')}-01`,
  };
  c.set('correlationId', request.submissionId);
  return state.ledger.submitReassignment(request);
}

/** What submit-and-wait asks for without an event format: every party, events then dropped. */
const EVERY_PARTY: EventFormat = {
  filtersByParty: {},
  filtersForAnyParty: { cumulative: [] },
  verbose: false,
};

export function reassignmentRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .post('/submit-and-wait-for-reassignment', async (c) => {
      const { reassignmentCommands, eventFormat } = await readJsonBody(c, submitAndWaitRequest);
      let filter: EventFilter | undefined;
      let deferred: SandboxError | undefined;
      const update = submitReassignment(
        c,
        state,
        reassignmentCommands,
        (claims) => {
          if (eventFormat) requireReadForEventFormat(claims, eventFormat);
        },
        () => {
          // The format's shape is checked first; its templates only when the committed
          // reassignment is looked up, as the command service reads it back by update id.
          try {
            filter = toEventFilter(state, eventFormat ?? EVERY_PARTY);
          } catch (error) {
            if (!(error instanceof SandboxError)) throw error;
            if (error.code !== 'TEMPLATES_OR_INTERFACES_NOT_FOUND') throw error;
            deferred = error;
          }
        },
      );
      if (deferred) throw deferred;
      const reassignment =
        filter &&
        toJsReassignment(update, filter, eventFormat !== null && eventFormat !== undefined);
      if (!reassignment) {
        // The command service's lookup by update id finds nothing the format lets through.
        throw new SandboxError('UPDATE_NOT_FOUND', 'Update not found, or not visible.', {
          resources: [['UPDATE_ID', update.updateId]],
        });
      }
      return c.json({ reassignment });
    })
    .post('/async/submit-reassignment', async (c) => {
      const { reassignmentCommands } = await readJsonBody(c, submitRequest);
      submitReassignment(c, state, reassignmentCommands);
      return c.json({});
    });
}
