import { env } from '@/env';
import { getSandboxInfo } from './sandbox-info';
import { listSignInProviders } from './sign-in-providers';

/**
 * What the console knows of the participant's answer to a request without a token: `unknown`
 * (nothing asked yet, or finding out), `sign-in-first` (401 to anything but its public endpoints)
 * or `open` (it runs without authentication, or could not be asked: requests go, and a 401 to one
 * of them still teaches `sign-in-first`).
 */
export type TokenlessAccess = 'open' | 'sign-in-first' | 'unknown';

/** The code of the answer the console gives itself instead of asking ({@link answerWithoutAsking}). */
export const SIGN_IN_FIRST_CODE = 'SIGN_IN_FIRST';

// Answered without a token by a participant with authentication too: the health probes are not
// part of the Ledger API, and the version service is public (the sandbox's auth matrix).
const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/v2/version', '/livez', '/readyz']);

// Per page load, like the page's knowledge of the participant: it is a fact about the
// participant, not about who signs in, so a sign-out keeps it (and asks nothing it knows is 401).
// Kept here and not in the query cache because the typed client's middleware needs it before any
// query runs (route loaders, the header's probes) and has no QueryClient.
let access: TokenlessAccess = 'unknown';
let learning: Promise<void> | undefined;

// The probe is the who-am-I every page asks first (the session's caller): its answer, unread, goes
// to that first request instead of a second round trip, while it is this fresh.
const WHO_AM_I = '/v2/authenticated-user';
const PROBE_ANSWER_KEPT_MS = 5_000;
let probeAnswer: { response: Response; at: number } | undefined;

function takeProbeAnswer(): Response | undefined {
  const kept = probeAnswer;
  probeAnswer = undefined;
  return kept !== undefined && Date.now() - kept.at <= PROBE_ANSWER_KEPT_MS
    ? kept.response
    : undefined;
}
const listeners = new Set<() => void>();

function settle(next: TokenlessAccess): void {
  if (next === access) return;
  access = next;
  for (const listener of listeners) listener();
}

/** What the console knows now about requests without a token. */
export function readTokenlessAccess(): TokenlessAccess {
  return access;
}

/** Calls `listener` whenever that knowledge changes (for the shell's signed-out state). */
export function subscribeTokenlessAccess(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The user asked to go on without a token ("Continue without a token"): that one attempt is sent
 * whatever the console concluded before, and its answer teaches the console again.
 */
export function allowTokenlessRequests(): void {
  learning = undefined;
  probeAnswer = undefined;
  settle('open');
}

/** Forgets what was learned, so the next tokenless request finds out again (another participant). */
export function forgetTokenlessAccess(): void {
  learning = undefined;
  probeAnswer = undefined;
  settle('unknown');
}

/**
 * Finds out, asking the participant as little as possible. The sandbox says whether it runs with
 * auth, and that settles it. Otherwise configured sign-in providers mean a token is needed (no
 * Ledger API request at all); without them, one probe, the who-am-I every page asks anyway.
 */
async function learn(): Promise<TokenlessAccess> {
  const [providers, sandbox] = await Promise.all([
    listSignInProviders().catch(() => []),
    getSandboxInfo().catch(() => null),
  ]);
  // A sandbox's word before the providers': sign-in may be offered for a participant that does
  // not require it (the console's own sandbox started with a sign-in config but without auth).
  if (sandbox !== null) return sandbox.auth === 'none' ? 'open' : 'sign-in-first';
  if (providers.length > 0) return 'sign-in-first';
  try {
    const probe = await globalThis.fetch(`${env.API_BASE_URL}/v2/authenticated-user`, {
      headers: { Accept: 'application/json' },
    });
    if (probe.status === 401) return 'sign-in-first';
    // Whatever it is (a user, or the 400 of a participant without auth), it answers that request.
    probeAnswer = { response: probe, at: Date.now() };
    return 'open';
  } catch {
    // Unreachable: nothing learned. Requests go and fail as they would have (the page then shows
    // that the participant does not answer), and the first 401 among them still teaches.
    return 'open';
  }
}

function signInFirst(): Response {
  return Response.json(
    {
      code: SIGN_IN_FIRST_CODE,
      cause:
        'Not sent: this participant answers requests without a token with 401, and no one has signed in yet.',
    },
    { status: 401 },
  );
}

/**
 * Asks nothing whose answer is known to be "sign in first": for a Ledger API request at `path`
 * without a token, the 401 the participant would give, made here, while the participant is known
 * to need a token (each request it refuses is a console error in the browser and a log line at the
 * participant); for the first who-am-I, the probe's own answer when {@link learn} asked it;
 * undefined when the request should go. Before anything is known, waits for {@link learn}. The
 * typed client's middleware calls it (client.ts).
 */
export async function answerWithoutAsking(path: string): Promise<Response | undefined> {
  if (PUBLIC_PATHS.has(path)) return undefined;
  if (access === 'unknown') {
    learning ??= learn().then((learned) => {
      // A 401 that arrived meanwhile, or the user's explicit choice, wins over the guess.
      if (access === 'unknown') settle(learned);
    });
    await learning;
  }
  if (access === 'sign-in-first') return signInFirst();
  return path === WHO_AM_I ? takeProbeAnswer() : undefined;
}

/** The participant answered a request without a token with `status`: a 401 teaches. */
export function learnFromTokenlessAnswer(status: number): void {
  if (status === 401) settle('sign-in-first');
}
