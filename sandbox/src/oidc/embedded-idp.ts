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

function isEarlierEmbeddedIssuer(issuer: string, path: string): boolean {
  if (!URL.canParse(issuer)) return false;
  const url = new URL(issuer);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  return url.protocol === 'http:' && loopback && url.pathname === path;
}
