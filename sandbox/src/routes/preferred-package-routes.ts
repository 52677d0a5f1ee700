import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuthenticated } from '../auth/authorizer';
import { DecodeFailure } from '../errors/sandbox-error';
import { list, readJsonBody, str } from '../http/decode';
import type { SandboxContext, SandboxEnv } from '../http/sandbox-env';
import type { LedgerState } from '../ledger-state';
import {
  noPreferredPackagesFound,
  preferredPackages,
  type PreferredPackagesRequest,
} from '../ledger/package-preference';
import { parseInstant } from '../ledger/package-vetting';
import type { Schemas } from '../wire-types';
import { timestamp } from './package-routes';

/**
 * `/v2/interactive-submission/preferred-packages` and `…/preferred-package-version`: the package
 * each package name resolves to for the given parties (ledger/package-preference.ts). Any
 * authenticated caller may ask (RequiredClaim.Public in InteractiveSubmissionServiceAuthorization).
 */

const preferredPackagesRequest = z.object({
  packageVettingRequirements: list(z.object({ parties: list(z.string()), packageName: str() })),
  synchronizerId: str(),
  vettingValidAt: timestamp(),
}) satisfies z.ZodType<PreferredPackagesRequest>;

/**
 * A single-valued query parameter as tapir's `query[String]`/`query[Option[…]]` decodes it: twice
 * is "multiple values", absent is "missing" when required.
 */
function singleQuery(c: SandboxContext, name: string, required: boolean): string | undefined {
  const values = c.req.queries(name) ?? [];
  if (values.length > 1) throw new DecodeFailure(`query parameter ${name}`, 'multiple values');
  if (values.length === 0 && required)
    throw new DecodeFailure(`query parameter ${name}`, 'missing');
  return values[0];
}

export function preferredPackageRoutes(state: LedgerState) {
  return new Hono<SandboxEnv>()
    .post('/preferred-packages', async (c) => {
      const request = await readJsonBody(c, preferredPackagesRequest);
      requireAuthenticated(c.get('caller'));
      const preferences = preferredPackages(state, request);
      if (!preferences.found) throw noPreferredPackagesFound(preferences.reason);
      const response: Schemas['GetPreferredPackagesResponse'] = {
        packageReferences: preferences.packageReferences,
        synchronizerId: preferences.synchronizerId,
      };
      return c.json(response);
    })
    .get('/preferred-package-version', (c) => {
      // tapir decodes the query parameters in the endpoint's order, before any server logic.
      const parties = c.req.queries('parties') ?? [];
      const packageName = singleQuery(c, 'package-name', true) ?? '';
      const validAtText = singleQuery(c, 'vetting_valid_at', false);
      const vettingValidAt = validAtText === undefined ? null : parseInstant(validAtText);
      if (vettingValidAt === undefined) throw new DecodeFailure('query parameter vetting_valid_at');
      const synchronizerId = singleQuery(c, 'synchronizer-id', false) ?? '';
      requireAuthenticated(c.get('caller'));
      const preferences = preferredPackages(state, {
        packageVettingRequirements: [{ parties, packageName }],
        synchronizerId,
        vettingValidAt,
      });
      // The deprecated lookup answers an empty preference where preferred-packages fails.
      const [packageReference] = preferences.found ? preferences.packageReferences : [];
      // None prints as null (§0.4), which the generated type calls optional.
      return c.json({
        packagePreference:
          preferences.found && packageReference
            ? { packageReference, synchronizerId: preferences.synchronizerId }
            : null,
      } as Schemas['GetPreferredPackageVersionResponse']);
    });
}
