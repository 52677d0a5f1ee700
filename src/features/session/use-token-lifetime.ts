import { useEffect, useState, useSyncExternalStore } from 'react';
import { readAccessToken, subscribeAccessToken } from '@/api/access-token';
import { decodeToken } from '@/lib/access/token-claims';

/** How often the remaining lifetime is recomputed: minutes are shown, so this is plenty. */
const TICK_MS = 15_000;

/** Seconds until the current token expires; undefined without a token or an `exp` claim. */
export function useTokenLifetime(): number | undefined {
  const token = useSyncExternalStore(subscribeAccessToken, readAccessToken);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, TICK_MS);
    return () => {
      clearInterval(timer);
    };
  }, []);
  if (token === undefined) return undefined;
  const decoded = decodeToken(token);
  if (decoded.kind !== 'jwt' || decoded.claims.expiresAt === undefined) return undefined;
  return Math.round(decoded.claims.expiresAt - now / 1000);
}

/** "expires in 4 min", "expired", … for a remaining lifetime in seconds. */
export function describeLifetime(seconds: number): string {
  if (seconds <= 0) return 'expired';
  if (seconds < 60) return 'expires in under a minute';
  if (seconds < 3600) return `expires in ${String(Math.floor(seconds / 60))} min`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `expires in ${String(hours)} h ${String(minutes)} min`;
}
