/**
 * "Copy as…" for every user change (issue 16 item 7): the request is built by the same api
 * builder the mutation sends, from the same mapper the form submits with, so the copy cannot
 * drift from what Submit does. Canton console lines follow the signatures of Canton's console
 * (`LedgerApiAdministration.scala`: users.create, update, delete, update_idp, rights.grant and
 * rights.revoke); `participant` stands for the user's node.
 */
import {
  createUserCall,
  deleteUserCall,
  moveUserCall,
  rightsChangeCall,
  toWireRight,
  updateUserCall,
  type UpdateUserRequest,
  type UserRef,
} from '@/api/users';
import type { RightKind, UserRight } from '@/lib/access/access-rights';
import {
  cantonConsoleCall,
  scalaAnnotationsPatch,
  scalaPartyId,
  scalaSet,
  scalaString,
  scalaStringMap,
  type CopyAsCommands,
} from '@/lib/text/copy-as';
import { toAnnotationsRecord } from '@/lib/forms/annotations-rules';
import type { RightsChange } from '@/api/users';
import { toUserRightList } from './rights-form-schema';
import { toCreateUserRequest, type CreateUserValues } from './user-form-schema';

const partiesOf = (rights: readonly UserRight[], kind: RightKind) =>
  rights.flatMap((right) => (right.kind === kind && 'party' in right ? [right.party] : []));

const has = (rights: readonly UserRight[], kind: RightKind) =>
  rights.some((right) => right.kind === kind);

const partySet = (parties: readonly string[]) =>
  parties.length === 0 ? undefined : scalaSet(parties.map(scalaPartyId));

const flag = (isSet: boolean) => (isSet ? 'true' : undefined);

const idpArg = (identityProviderId: string) =>
  identityProviderId === '' ? undefined : scalaString(identityProviderId);

/**
 * `users.create` takes act-as, read-as, participant admin, IdP admin and read-as-any-party; a
 * user with execute rights or act-as-any-party has no console equivalent in one call.
 */
const CREATE_UNSUPPORTED: readonly RightKind[] = [
  'CanExecuteAs',
  'CanExecuteAsAnyParty',
  'CanActAsAnyParty',
];

export function createUserCommands(values: CreateUserValues): CopyAsCommands {
  const rights = toUserRightList(values.rights);
  const annotations = toAnnotationsRecord(values.annotations);
  const cantonConsole = CREATE_UNSUPPORTED.some((kind) => has(rights, kind))
    ? undefined
    : cantonConsoleCall('ledger_api.users.create', [
        ['id', scalaString(values.userId)],
        ['actAs', partySet(partiesOf(rights, 'CanActAs'))],
        [
          'primaryParty',
          values.primaryParty === '' ? undefined : `Some(${scalaPartyId(values.primaryParty)})`,
        ],
        ['readAs', partySet(partiesOf(rights, 'CanReadAs'))],
        ['participantAdmin', flag(has(rights, 'ParticipantAdmin'))],
        ['identityProviderAdmin', flag(has(rights, 'IdentityProviderAdmin'))],
        ['isDeactivated', flag(values.isDeactivated)],
        [
          'annotations',
          Object.keys(annotations).length === 0 ? undefined : scalaStringMap(annotations),
        ],
        ['identityProviderId', idpArg(values.identityProviderId)],
        ['readAsAnyParty', flag(has(rights, 'CanReadAsAnyParty'))],
      ]);
  return {
    request: createUserCall(toCreateUserRequest(values)),
    ...(cantonConsole === undefined ? {} : { cantonConsole }),
  };
}

/**
 * A profile edit, deactivation or reactivation: the PATCH as the form sends it, and the console's
 * `users.update` with a modifier that changes the same fields (its `User` has `primaryParty`,
 * `isDeactivated` and `annotations`).
 */
export function updateUserCommands(
  request: UpdateUserRequest | undefined,
): CopyAsCommands | undefined {
  if (request === undefined) return undefined;
  const { user, updateMask } = request;
  const paths = updateMask.paths ?? [];
  const changes: string[] = [];
  if (paths.includes('primary_party')) {
    changes.push(
      `primaryParty = ${user.primaryParty ? `Some(${scalaPartyId(user.primaryParty)})` : 'None'}`,
    );
  }
  if (paths.includes('is_deactivated')) {
    changes.push(`isDeactivated = ${user.isDeactivated === true ? 'true' : 'false'}`);
  }
  if (paths.includes('metadata.annotations')) {
    changes.push(
      `annotations = ${scalaAnnotationsPatch('user.annotations', user.metadata?.annotations ?? {})}`,
    );
  }
  return {
    request: updateUserCall(request),
    cantonConsole: cantonConsoleCall('ledger_api.users.update', [
      ['id', scalaString(user.id)],
      ['modifier', `user => user.copy(${changes.join(', ')})`],
      ['identityProviderId', idpArg(user.identityProviderId ?? '')],
    ]),
  };
}

export function deleteUserCommands(ref: UserRef): CopyAsCommands {
  return {
    request: deleteUserCall(ref),
    cantonConsole: cantonConsoleCall('ledger_api.users.delete', [
      ['id', scalaString(ref.userId)],
      ['identityProviderId', idpArg(ref.identityProviderId)],
    ]),
  };
}

/**
 * A grant or revoke of `rights`: `users.rights.grant` and `users.rights.revoke` take the same
 * arguments. Act-as-any-party is left to curl: only the newest consoles take it.
 */
export function rightsChangeCommands(
  action: 'grant' | 'revoke',
  ref: UserRef,
  rights: readonly UserRight[],
): CopyAsCommands | undefined {
  if (rights.length === 0) return undefined;
  const change: RightsChange = { ...ref, rights: rights.map(toWireRight) };
  const cantonConsole = has(rights, 'CanActAsAnyParty')
    ? undefined
    : cantonConsoleCall(`ledger_api.users.rights.${action}`, [
        ['id', scalaString(ref.userId)],
        ['actAs', partySet(partiesOf(rights, 'CanActAs'))],
        ['readAs', partySet(partiesOf(rights, 'CanReadAs'))],
        ['participantAdmin', flag(has(rights, 'ParticipantAdmin'))],
        ['identityProviderAdmin', flag(has(rights, 'IdentityProviderAdmin'))],
        ['identityProviderId', idpArg(ref.identityProviderId)],
        ['readAsAnyParty', flag(has(rights, 'CanReadAsAnyParty'))],
        ['executeAs', partySet(partiesOf(rights, 'CanExecuteAs'))],
        ['executeAsAnyParty', flag(has(rights, 'CanExecuteAsAnyParty'))],
      ]);
  return {
    request: rightsChangeCall(action, change),
    ...(cantonConsole === undefined ? {} : { cantonConsole }),
  };
}

export function moveUserCommands(
  userId: string,
  sourceIdentityProviderId: string,
  targetIdentityProviderId: string,
): CopyAsCommands {
  return {
    request: moveUserCall({ userId, sourceIdentityProviderId, targetIdentityProviderId }),
    // Both ids are required arguments there; "" is the default identity provider.
    cantonConsole: cantonConsoleCall('ledger_api.users.update_idp', [
      ['id', scalaString(userId)],
      ['sourceIdentityProviderId', scalaString(sourceIdentityProviderId)],
      ['targetIdentityProviderId', scalaString(targetIdentityProviderId)],
    ]),
  };
}
