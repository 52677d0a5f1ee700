/**
 * "Copy as…" for party changes (issue 16 item 7), built by the api builders the mutations send
 * with, from the same form mappers. `parties.allocate` is the checked Canton console signature;
 * an annotations update has no console line here.
 */
import {
  allocateExternalPartyCall,
  generateExternalPartyTopologyCall,
  type AllocateExternalPartyRequest,
} from '@/api/external-parties';
import { allocatePartyCall, updatePartyAnnotationsCall, type PartyDetails } from '@/api/parties';
import { rightsChangeCall, toWireRight } from '@/api/users';
import type { PartyRightKind } from '@/lib/access/access-rights';
import { toAnnotationsRecord } from '@/lib/forms/annotations-rules';
import {
  cantonConsoleCall,
  scalaAnnotationsPatch,
  scalaPartyId,
  scalaSet,
  scalaString,
  scalaStringMap,
  type CopyAsCommands,
} from '@/lib/text/copy-as';
import type { PublicSigningKey } from '@/lib/signing/keys';
import { toGenerateTopologyRequest, type ExternalPartyValues } from './external-party-form-schema';
import {
  toAllocatePartyRequest,
  toPartyAnnotationsPatch,
  type AllocatePartyValues,
  type PartyAnnotationsValues,
} from './party-form-schema';

/**
 * The console's `allocate` needs a hint (`party: String`) and takes the synchronizer as a typed
 * id; without a hint, or with a chosen synchronizer, only curl is offered.
 */
export function allocatePartyCommands(values: AllocatePartyValues): CopyAsCommands {
  const annotations = toAnnotationsRecord(values.annotations);
  const cantonConsole =
    values.partyIdHint === '' || values.synchronizerId !== ''
      ? undefined
      : cantonConsoleCall('ledger_api.parties.allocate', [
          ['party', scalaString(values.partyIdHint)],
          [
            'annotations',
            Object.keys(annotations).length === 0 ? undefined : scalaStringMap(annotations),
          ],
          [
            'identityProviderId',
            values.identityProviderId === '' ? undefined : scalaString(values.identityProviderId),
          ],
          ['userId', values.userId === '' ? undefined : scalaString(values.userId)],
        ]);
  return {
    request: allocatePartyCall(toAllocatePartyRequest(values)),
    ...(cantonConsole === undefined ? {} : { cantonConsole }),
  };
}

/** Undefined while nothing changed: there is no request to copy. */
export function partyAnnotationsCommands(
  party: PartyDetails,
  values: PartyAnnotationsValues,
): CopyAsCommands | undefined {
  const annotations = toPartyAnnotationsPatch(party, values);
  if (annotations === undefined) return undefined;
  const identityProviderId = party.identityProviderId ?? '';
  return {
    request: updatePartyAnnotationsCall({ loaded: party, annotations }),
    // `parties.update(party, modifier, identityProviderId)`: annotations are all it may change.
    cantonConsole: cantonConsoleCall('ledger_api.parties.update', [
      ['party', scalaPartyId(party.party)],
      [
        'modifier',
        `details => details.copy(annotations = ${scalaAnnotationsPatch('details.annotations', annotations)})`,
      ],
      [
        'identityProviderId',
        identityProviderId === '' ? undefined : scalaString(identityProviderId),
      ],
    ]),
  };
}

/** A grant of one party right to a user, from the party page; `users.rights.grant` takes each. */
export function partyGrantCommands(
  userId: string,
  identityProviderId: string,
  kind: PartyRightKind,
  party: string,
): CopyAsCommands {
  const parties = scalaSet([scalaPartyId(party)]);
  const argument = { CanActAs: 'actAs', CanReadAs: 'readAs', CanExecuteAs: 'executeAs' }[kind];
  return {
    request: rightsChangeCall('grant', {
      userId,
      identityProviderId,
      rights: [toWireRight({ kind, party })],
    }),
    cantonConsole: cantonConsoleCall('ledger_api.users.rights.grant', [
      ['id', scalaString(userId)],
      [argument, parties],
      [
        'identityProviderId',
        identityProviderId === '' ? undefined : scalaString(identityProviderId),
      ],
    ]),
  };
}

/**
 * External parties (issue 23): curl only. The Canton console's commands for them could not be
 * checked against a 3.5 console here, so none is offered rather than a guessed one. The request
 * carries the public key only; the private key never reaches a copied command.
 */
export function generateTopologyCommands(
  values: ExternalPartyValues,
  publicKey: PublicSigningKey,
): CopyAsCommands {
  return {
    request: generateExternalPartyTopologyCall(toGenerateTopologyRequest(values, publicKey)),
  };
}

/** The allocation as sent: the topology transactions and the multi-hash signature. */
export function allocateExternalPartyCommands(
  request: AllocateExternalPartyRequest,
): CopyAsCommands {
  return { request: allocateExternalPartyCall(request) };
}
