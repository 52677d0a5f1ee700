const STORAGE_KEY = 'ledger-console.access-token';
/** Every key the console keeps in session storage starts with this. */
const SESSION_DATA_PREFIX = 'ledger-console.';

export type WriteAccessTokenOptions = {
  /**
   * Keep the token in local storage, so it outlives the browser session. Off by default: a bearer
   * token should not outlive the session unless the user asks for it.
   */
  remember?: boolean;
};

/** The bearer token sent with every API call, or undefined when none is set. */
export function readAccessToken(): string | undefined {
  for (const storage of storages()) {
    const token = storage.getItem(STORAGE_KEY)?.trim();
    if (token) return token;
  }
  return undefined;
}

/** Whether the current token was stored to be remembered beyond this browser session. */
export function isAccessTokenRemembered(): boolean {
  return Boolean(storage('localStorage')?.getItem(STORAGE_KEY)?.trim());
}

/** Stores the token (session storage unless `remember`); an empty or missing token signs out. */
export function writeAccessToken(
  token: string | undefined,
  { remember = false }: WriteAccessTokenOptions = {},
): void {
  const trimmed = token?.trim();
  // One token at a time: writing a new one, or none, clears both places.
  for (const storage of storages()) storage.removeItem(STORAGE_KEY);
  forgetSessionData();
  if (trimmed) storage(remember ? 'localStorage' : 'sessionStorage')?.setItem(STORAGE_KEY, trimmed);
}

/**
 * What the console kept for this browser session (a composer draft, …) belonged to the identity
 * that signed out or was replaced: it holds that identity's parties and arguments.
 */
function forgetSessionData(): void {
  const session = storage('sessionStorage');
  if (!session) return;
  const keys = Array.from({ length: session.length }, (_, index) => session.key(index));
  for (const key of keys) {
    if (key?.startsWith(SESSION_DATA_PREFIX) && key !== STORAGE_KEY) session.removeItem(key);
  }
}

function storages(): Storage[] {
  return [storage('sessionStorage'), storage('localStorage')].filter(
    (s): s is Storage => s !== undefined,
  );
}

function storage(name: 'sessionStorage' | 'localStorage'): Storage | undefined {
  // Absent outside browsers, and throws in some privacy modes; either way there is no token.
  try {
    const found: Storage | undefined = globalThis[name];
    return found;
  } catch {
    return undefined;
  }
}
