import type { IdpsStore } from '../store/idps-store';
import type { IssuerInfo } from './embedded-provider';

/**
 * Points an IdP configuration that names an earlier run's embedded issuer at this run's. The
 * provider takes a free port on each start, so with `--data-dir` the stored `acme-idp` would
 * otherwise name a dead port and none of its users could sign in. Only a configuration that still
 * looks like ours (http on loopback, the issuer's path) is touched: one the user pointed at a real
 * IdP stays as it is. Returns whether it changed anything.
 */
export function repointEmbeddedIdp(
  idps: IdpsStore,
  identityProviderId: string,
  current: Pick<IssuerInfo, 'issuer' | 'jwksUri'>,
): boolean {
  const idp = idps.get(identityProviderId);
  if (!idp || idp.issuer === current.issuer) return false;
  if (!isEarlierEmbeddedIssuer(idp.issuer, new URL(current.issuer).pathname)) return false;
  idps.save({ ...idp, issuer: current.issuer, jwksUrl: current.jwksUri });
  return true;
}

/**
 * Like {@link repointEmbeddedIdp}, for an issuer whose configuration the user created and named:
 * every configuration still naming an earlier run's issuer of the same path follows this run's.
 */
export function repointEmbeddedIssuer(
  idps: IdpsStore,
  current: Pick<IssuerInfo, 'issuer' | 'jwksUri'>,
): number {
  const path = new URL(current.issuer).pathname;
  // Issuers are unique: a configuration already naming this run's issuer wins over stale ones.
  if (idps.byIssuer(current.issuer)) return 0;
  const stale = idps.list().filter((idp) => isEarlierEmbeddedIssuer(idp.issuer, path));
  const [first] = stale;
  if (stale.length !== 1 || !first) return 0;
  idps.save({ ...first, issuer: current.issuer, jwksUrl: current.jwksUri });
  return 1;
}

function isEarlierEmbeddedIssuer(issuer: string, path: string): boolean {
  if (!URL.canParse(issuer)) return false;
  const url = new URL(issuer);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  return url.protocol === 'http:' && loopback && url.pathname === path;
}
