import type { Path } from 'react-hook-form';
import type { ApiError } from '@/lib/errors/api-error';
import type { PartyScope } from './composer-access';
import type { CommandValues, ComposerValues } from './composer-form-schema';

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
  /** Whom the caller may act and read as: a 403 for Read as parties alone goes on Read as. */
  scopes?: { actAs: PartyScope; readAs: PartyScope },
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
    if (namesAnotherUser || /user_?id/i.test(cause)) return 'userId';
    // The body is masked (NA): tell the party field from what the caller's rights allow.
    const outside = (scope: PartyScope | undefined, parties: readonly string[]) =>
      scope?.kind === 'only' && parties.some((party) => !scope.parties.includes(party));
    const actAsAllowed = scopes !== undefined && !outside(scopes.actAs, values.actAs);
    return actAsAllowed && outside(scopes.readAs, values.readAs) ? 'readAs' : 'actAs';
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
