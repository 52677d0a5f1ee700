// Session storage, not local storage: a bearer token should not outlive the browser session.
const STORAGE_KEY = 'ledger-console.access-token';

/** The bearer token sent with every API call, or undefined when none is set. */
export function readAccessToken(): string | undefined {
  const token = storage()?.getItem(STORAGE_KEY)?.trim();
  if (!token) return undefined;
  return token;
}

/** Stores the token for this browser session; an empty or missing token signs out. */
export function writeAccessToken(token: string | undefined): void {
  const trimmed = token?.trim();
  if (trimmed) storage()?.setItem(STORAGE_KEY, trimmed);
  else storage()?.removeItem(STORAGE_KEY);
}

function storage(): Storage | undefined {
  // Absent outside browsers, and throws in some privacy modes; either way there is no token.
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}
