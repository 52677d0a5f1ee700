import { z } from 'zod';
import { invalidArgument } from '../errors/sandbox-error';
import { bool, message, objectMetaSchema, str } from '../http/decode';
import { isPartyRightKind, isRightKind, type RightRecord } from '../store/rights';
import { partyProblem } from '../validation/identifiers';

export const userSchema = z.object({
  id: str(),
  primaryParty: str(),
  isDeactivated: bool(),
  metadata: message(objectMetaSchema),
  identityProviderId: str(),
  primaryPartyAuthentication: bool(),
});

export type UserInput = z.infer<typeof userSchema>;

// A Kind is a one-key object naming the variant (openapi `Kind`). Every right wraps a `value`:
// `{party}` for the three party kinds, `{}` for the others. `Empty` (an unset oneof) is written
// with no `value`; it decodes, and validation then refuses it as the participant does (§2.2).
const partyVariant = z.object({ value: z.object({ party: str() }) }).optional();
const plainVariant = z.object({ value: z.object({}) }).optional();
const kindSchema = z
  .looseObject({
    CanActAs: partyVariant,
    CanReadAs: partyVariant,
    CanExecuteAs: partyVariant,
    ParticipantAdmin: plainVariant,
    IdentityProviderAdmin: plainVariant,
    CanActAsAnyParty: plainVariant,
    CanReadAsAnyParty: plainVariant,
    CanExecuteAsAnyParty: plainVariant,
    Empty: z.object({}).optional(),
  })
  .superRefine((kind, ctx) => {
    const keys = Object.keys(kind);
    const [key] = keys;
    if (keys.length !== 1 || key === undefined || !(isRightKind(key) || key === 'Empty')) {
      ctx.addIssue({
        code: 'custom',
        message: `Unexpected or ambiguous Kind variant ${JSON.stringify(keys)}`,
      });
    }
  });

export const rightSchema = z.object({ kind: message(kindSchema) });
export type RightInput = z.infer<typeof rightSchema>;

/**
 * Wire rights to stored ones, validating party strings. An absent kind or `Empty` is rejected
 * the way an old client's unknown right would be (§2.2).
 */
export function toRightRecords(rights: RightInput[]): RightRecord[] {
  return rights.map(({ kind }) => {
    const [name] = Object.keys(kind ?? {});
    if (name === undefined || !isRightKind(name)) {
      throw invalidArgument(
        'unknown kind of right - check that the Ledger API version of the server is recent enough',
      );
    }
    if (!isPartyRightKind(name)) return { kind: name, party: '' };
    const party = kind?.[name]?.value.party ?? '';
    const problem = partyProblem(party);
    if (problem) throw invalidArgument(problem);
    return { kind: name, party };
  });
}

export { toWireUser } from '../store/users-store';

export const USER_UPDATE_PATHS = [
  'id',
  'primary_party',
  'is_deactivated',
  'primary_party_authentication',
  'identity_provider_id',
  'metadata',
  'metadata.annotations',
  'metadata.resource_version',
] as const;
