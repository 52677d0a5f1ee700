import { Hono } from 'hono';
import { z } from 'zod';
import { requireAdmin } from '../auth/authorizer';
import { SandboxError, invalidArgument, invalidField, missingField } from '../errors/sandbox-error';
import { bool, fieldMaskSchema, message, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import type { IdpRecord } from '../store/idps-store';
import { ledgerStringProblem } from '../validation/identifiers';
import type { Schemas } from '../wire-types';
import { updateMaskProblem } from './update-mask';

/** IdentityProviderManagementConfig.MaxIdentityProviders, hard coded in Canton (§3.2). */
export const MAX_IDENTITY_PROVIDERS = 16;

const idpSchema = z.object({
  identityProviderId: str(),
  isDeactivated: bool(),
  issuer: str(),
  jwksUrl: str(),
  audience: str(),
});
type IdpInput = z.infer<typeof idpSchema>;

const createRequest = z.object({ identityProviderConfig: message(idpSchema) });
const updateRequest = z.object({
  identityProviderConfig: message(idpSchema),
  updateMask: message(fieldMaskSchema),
});

const UPDATE_PATHS = [
  'identity_provider_id',
  'is_deactivated',
  'jwks_url',
  'issuer',
  'audience',
] as const;

const toWire = (idp: IdpRecord): Schemas['IdentityProviderConfig'] => ({
  identityProviderId: idp.identityProviderId,
  isDeactivated: idp.isDeactivated,
  issuer: idp.issuer,
  jwksUrl: idp.jwksUrl,
  audience: idp.audience,
});

function checkId(id: string) {
  if (id === '') throw missingField('identity_provider_id');
  const problem = ledgerStringProblem(id);
  if (problem) throw invalidField('identity_provider_id', problem);
}

// Java's `new URI(s).toURL()`: any absolute URI with a scheme the JVM has a handler for.
const JAVA_URL_SCHEMES = ['http', 'https', 'file', 'ftp', 'jar', 'mailto'];

function checkJwksUrl(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidField('jwks_url', 'Malformed URL: URI is not absolute');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (!JAVA_URL_SCHEMES.includes(scheme)) {
    throw invalidField('jwks_url', `Malformed URL: unknown protocol: ${scheme}`);
  }
}

const notFound = (operation: string, id: string) =>
  new SandboxError(
    'IDP_CONFIG_NOT_FOUND',
    `${operation} failed for unknown identity provider id="${id}"`,
    { resources: [['IDENTITY_PROVIDER_CONFIG', id]] },
  );

const issuerTaken = (operation: string, issuer: string) =>
  new SandboxError(
    'IDP_CONFIG_ISSUER_ALREADY_EXISTS',
    `${operation} failed, as identity provider with issuer "${issuer}" already exists`,
    { resources: [['IDENTITY_PROVIDER_CONFIG', issuer]] },
  );

function pathIdpId(c: SandboxContext) {
  const id = c.req.param('idpId') ?? '';
  checkId(id);
  return id;
}

/** scalapb's toString of the body config, as the JSON layer prints it in the mismatch error. */
function renderConfig(config: IdpInput | null | undefined) {
  if (!config) return 'None';
  return `Some(IdentityProviderConfig(${config.identityProviderId},${String(config.isDeactivated)},${config.issuer},${config.jwksUrl},${config.audience},UnknownFieldSet(Map())))`;
}

export function identityProviderRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .get('/', (c) => {
      requireAdmin(c.get('caller'));
      // The default IdP ('') is implicit and never listed (§3.3).
      return c.json({ identityProviderConfigs: state.idps.list().map(toWire) });
    })
    .post('/', async (c) => {
      const { identityProviderConfig: config } = await readJsonBody(c, createRequest);
      requireAdmin(c.get('caller'));
      if (!config) throw missingField('identity_provider_config');
      checkId(config.identityProviderId);
      if (config.issuer === '') throw missingField('issuer');
      if (config.jwksUrl === '') throw missingField('jwks_url');
      checkJwksUrl(config.jwksUrl);
      const operation = 'creating identity provider config';
      const created = state.transaction(() => {
        if (state.idps.get(config.identityProviderId)) {
          throw new SandboxError(
            'IDP_CONFIG_ALREADY_EXISTS',
            `${operation} failed, as identity provider "${config.identityProviderId}" already exists`,
            { resources: [['IDENTITY_PROVIDER_CONFIG', config.identityProviderId]] },
          );
        }
        if (state.idps.byIssuer(config.issuer)) throw issuerTaken(operation, config.issuer);
        if (state.idps.count() >= MAX_IDENTITY_PROVIDERS) {
          throw new SandboxError('TOO_MANY_IDENTITY_PROVIDER_CONFIGS', `${operation} failed.`);
        }
        const record: IdpRecord = { ...config };
        state.idps.save(record);
        return record;
      });
      return c.json({ identityProviderConfig: toWire(created) });
    })
    .get('/:idpId', (c) => {
      const id = pathIdpId(c);
      requireAdmin(c.get('caller'));
      const idp = state.idps.get(id);
      if (!idp) throw notFound('getting identity provider config', id);
      return c.json({ identityProviderConfig: toWire(idp) });
    })
    .patch('/:idpId', async (c) => {
      const pathId = c.req.param('idpId');
      const { identityProviderConfig: config, updateMask } = await readJsonBody(c, updateRequest);
      if (config?.identityProviderId !== pathId) {
        throw invalidArgument(`${pathId} does not match idp in body: ${renderConfig(config)}`, {
          origin: 'json',
        });
      }
      requireAdmin(c.get('caller'));
      if (!updateMask) throw missingField('update_mask');
      checkId(config.identityProviderId);
      // issuer and jwks_url may be empty when they are not being updated.
      if (config.jwksUrl !== '') checkJwksUrl(config.jwksUrl);
      const maskProblem = updateMaskProblem(updateMask.paths, UPDATE_PATHS);
      if (maskProblem) {
        throw new SandboxError(
          'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST',
          `Update operation for identity provider config '${config.identityProviderId}' failed due to: ${maskProblem}`,
          { resources: [['IDENTITY_PROVIDER_CONFIG', config.identityProviderId]] },
        );
      }
      const paths = updateMask.paths;
      if (paths.includes('issuer') && config.issuer === '') throw missingField('issuer');
      if (paths.includes('jwks_url') && config.jwksUrl === '') throw missingField('jwks_url');
      const operation = 'updating identity provider config';
      const updated = state.transaction(() => {
        const current = state.idps.get(config.identityProviderId);
        if (!current) throw notFound(operation, config.identityProviderId);
        const next: IdpRecord = { ...current };
        if (paths.includes('is_deactivated')) next.isDeactivated = config.isDeactivated;
        if (paths.includes('jwks_url')) next.jwksUrl = config.jwksUrl;
        if (paths.includes('audience')) next.audience = config.audience;
        if (paths.includes('issuer') && config.issuer !== current.issuer) {
          const other = state.idps.byIssuer(config.issuer);
          if (other && other.identityProviderId !== current.identityProviderId) {
            throw issuerTaken(operation, config.issuer);
          }
          next.issuer = config.issuer;
        }
        state.idps.save(next);
        return next;
      });
      return c.json({ identityProviderConfig: toWire(updated) });
    })
    .delete('/:idpId', (c) => {
      const id = pathIdpId(c);
      requireAdmin(c.get('caller'));
      state.transaction(() => {
        if (!state.idps.get(id)) throw notFound('deleting identity provider config', id);
        // Users and party records reference the IdP through plain foreign keys, so the real
        // participant's delete fails inside the database: a redacted internal error (§3.3, inferred).
        if (state.users.countByIdp(id) > 0 || state.parties.countByIdp(id) > 0) {
          throw new SandboxError(
            'INTERNAL_ERROR',
            `identity provider config ${id} is still referenced by users or parties`,
          );
        }
        state.idps.delete(id);
      });
      return c.json({});
    });
}
