import {
  createIdentityProviderRequest,
  deleteIdentityProviderRequest,
  updateIdentityProviderRequest,
  type IdentityProviderConfig,
  type UpdateIdentityProviderConfigRequest,
} from '@/api/identity-providers';
import { createUserCall, type CreateUserRequest } from '@/api/users';
import { cantonConsoleCall, scalaString, type CopyAsCommands } from '@/lib/text/copy-as';

/**
 * "Copy as…" for every IdP admin action: curl of the request the button sends (the API's own
 * builders, the ones the mutations call) and the Canton console's
 * `ledger_api.identity_provider_config` command, whose signatures are
 *   create(identityProviderId: String, isDeactivated: Boolean = false, jwksUrl: String,
 *          issuer: String, audience: Option[String])
 *   update(identityProviderId: String, isDeactivated: Boolean = false, jwksUrl: String,
 *          issuer: String, audience: Option[String], updateMask: FieldMask)
 *   delete(identityProviderId: String)
 * (Canton's BaseLedgerApiAdministration). Every argument is named, so the line reads like the form.
 */

const TARGET = 'ledger_api.identity_provider_config';

/** `Some("x")`, or `None` for the empty audience (the API's "none"). */
const scalaAudience = (audience: string | undefined) =>
  audience === undefined || audience === '' ? 'None' : `Some(${scalaString(audience)})`;

const scalaFieldMask = (paths: readonly string[]) =>
  `FieldMask(Seq(${paths.map(scalaString).join(', ')}))`;

export function createIdentityProviderCopyAs(config: IdentityProviderConfig): CopyAsCommands {
  return {
    request: createIdentityProviderRequest(config),
    cantonConsole: cantonConsoleCall(`${TARGET}.create`, [
      ['identityProviderId', scalaString(config.identityProviderId)],
      // Left at its default (false) unless the IdP is created deactivated.
      ['isDeactivated', config.isDeactivated === true ? 'true' : undefined],
      ['jwksUrl', scalaString(config.jwksUrl)],
      ['issuer', scalaString(config.issuer)],
      ['audience', scalaAudience(config.audience)],
    ]),
  };
}

/**
 * An update, with the update mask it sends. The console takes the same values as the JSON body:
 * fields outside the mask are sent as '' (and `None`) there too, and ignored by the participant.
 */
export function updateIdentityProviderCopyAs(
  request: UpdateIdentityProviderConfigRequest,
): CopyAsCommands {
  const { identityProviderConfig: config, updateMask } = request;
  return {
    request: updateIdentityProviderRequest(request),
    cantonConsole: cantonConsoleCall(`${TARGET}.update`, [
      ['identityProviderId', scalaString(config.identityProviderId)],
      ['isDeactivated', config.isDeactivated === true ? 'true' : 'false'],
      ['jwksUrl', scalaString(config.jwksUrl)],
      ['issuer', scalaString(config.issuer)],
      ['audience', scalaAudience(config.audience)],
      ['updateMask', scalaFieldMask(updateMask.paths ?? [])],
    ]),
  };
}

export function deleteIdentityProviderCopyAs(identityProviderId: string): CopyAsCommands {
  return {
    request: deleteIdentityProviderRequest(identityProviderId),
    cantonConsole: cantonConsoleCall(`${TARGET}.delete`, [
      ['identityProviderId', scalaString(identityProviderId)],
    ]),
  };
}

/**
 * The first IdP admin: POST /v2/users with the IdentityProviderAdmin right, as the form sends it;
 * in the console, `users.create(id, identityProviderAdmin = true, identityProviderId = …)`
 * (Canton 3.3's signature adds `identityProviderAdmin: Boolean = false`).
 */
export function firstIdentityProviderAdminCopyAs(request: CreateUserRequest): CopyAsCommands {
  return {
    request: createUserCall(request),
    cantonConsole: cantonConsoleCall('ledger_api.users.create', [
      ['id', scalaString(request.user.id)],
      ['identityProviderAdmin', 'true'],
      ['identityProviderId', scalaString(request.user.identityProviderId ?? '')],
    ]),
  };
}
