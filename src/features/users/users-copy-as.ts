/**
 * "Copy as…" for every user change (issue 16 item 7): the request is built by the same api
 * builder the mutation sends, from the same mapper the form submits with, so the copy cannot
 * drift from what Submit does. Canton console lines only where its signature was checked against
 * the Canton console reference (users.create, users.rights.grant); the rest have none here.
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
import type { RightKind, UserRight } from '@/lib/access-rights';
import {
  cantonConsoleCall,
  scalaPartyId,
  scalaSet,
  scalaString,
  scalaStringMap,
  type CopyAsCommands,
} from '@/lib/copy-as';
import { toAnnotationsRecord } from '@/lib/annotations-rules';
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

/** A profile edit, deactivation or reactivation: the PATCH as the form sends it. */
export function updateUserCommands(
  request: UpdateUserRequest | undefined,
): CopyAsCommands | undefined {
  return request === undefined ? undefined : { request: updateUserCall(request) };
}

export function deleteUserCommands(ref: UserRef): CopyAsCommands {
  return { request: deleteUserCall(ref) };
}

/**
 * A grant or revoke of `rights`. `users.rights.grant` takes every kind but act-as-any-party; a
 * revoke has no console line here.
 */
export function rightsChangeCommands(
  action: 'grant' | 'revoke',
  ref: UserRef,
  rights: readonly UserRight[],
): CopyAsCommands | undefined {
  if (rights.length === 0) return undefined;
  const change: RightsChange = { ...ref, rights: rights.map(toWireRight) };
  const cantonConsole =
    action === 'revoke' || has(rights, 'CanActAsAnyParty')
      ? undefined
      : cantonConsoleCall('ledger_api.users.rights.grant', [
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
  };
}
