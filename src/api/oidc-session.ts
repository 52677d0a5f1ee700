import {
  ErrorResponse,
  UserManager,
  WebStorageStateStore,
  type OidcMetadata,
  type User,
} from 'oidc-client-ts';
import { env } from '@/env';
import { DescribedError } from '@/lib/errors/api-error';
import type { SignInProviderConfig } from './sign-in-providers';
import { isWebUrl } from '@/lib/text/is-web-url';
import { pageStorageParticipant } from './participant-scope';

/*
 * Authorization Code + PKCE with an organisation's OpenID provider, through oidc-client-ts. Only
 * ever loaded with `import()`: the first route's JS budget has no room for it, and a console on a
 * participant without OpenID never needs it.
 *
 * Storage: the pending request (state, nonce, PKCE verifier) and the signed-in user (with its
 * refresh token) live in this tab's session storage, like the access token: closing the tab ends
 * the sign-in. oidc-client-ts logs nothing unless told to, so no token reaches the console. In a
 * fleet each participant keeps its own (tokens carry a participant's audience, even when the
 * provider is shared), and the provider sends the browser back to the participant's own pages
 * (`/p/NAME/sign-in/callback`, to register at the provider like the unprefixed one).
 */

export const CALLBACK_PATH = '/sign-in/callback';
export const POPUP_CALLBACK_PATH = '/sign-in/popup-callback';
export const SIGNED_OUT_PATH = '/sign-in';
/** Longest text of the provider's we show: its error descriptions are not ours to size. */
const MAX_PROVIDER_TEXT = 300;

/** What the page carries through the provider round trip (stored here, never sent). */
type SignInState = { returnTo: string };

/** A sign-in answer the console cannot use, worded for the sign-in page. */
export class SignInCallbackError extends DescribedError {
  override name = 'SignInCallbackError';
  readonly title = 'Sign-in did not complete';
}

export type CompletedSignIn = {
  provider: SignInProviderConfig;
  user: User;
  /** The same-origin path the sign-in started from (checked again by the caller). */
  returnTo: string | undefined;
};

const managers = new Map<string, UserManager>();

/** The page's participant's prefix, read per use: the page learns it at boot. */
function storePrefix(): string {
  const participant = pageStorageParticipant();
  return participant === undefined ? 'oidc.' : `oidc.participant/${participant}/`;
}

function sessionStore(): WebStorageStateStore {
  return new WebStorageStateStore({ store: globalThis.sessionStorage, prefix: storePrefix() });
}

/** One UserManager per provider and page: its events (token expiring) belong to the page. */
export function managerFor(provider: SignInProviderConfig): UserManager {
  const key = managerKey(provider);
  let manager = managers.get(key);
  if (!manager) {
    // On `/p/NAME/…` pages the provider comes back to that participant's pages.
    const origin = `${globalThis.location.origin}${env.PAGE_BASE}`;
    manager = new UserManager({
      authority: provider.oidc.authority,
      client_id: provider.oidc.client_id,
      scope: provider.oidc.scope,
      extraQueryParams: provider.oidc.extraQueryParams,
      response_type: 'code',
      redirect_uri: `${origin}${CALLBACK_PATH}`,
      popup_redirect_uri: `${origin}${POPUP_CALLBACK_PATH}`,
      post_logout_redirect_uri: `${origin}${SIGNED_OUT_PATH}`,
      userStore: sessionStore(),
      stateStore: sessionStore(),
      // Renewal is the console's (see watchExpiry): a refresh token when the provider gave one,
      // otherwise a prompt. The library's fallback is a hidden iframe with prompt=none, which
      // third-party-cookie rules break at most providers and which would load this page framed.
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
      requestTimeoutInSeconds: 10,
      accessTokenExpiringNotificationTimeInSeconds: 60,
    });
    managers.set(key, manager);
  }
  return manager;
}

function managerKey(provider: SignInProviderConfig): string {
  return JSON.stringify([provider.oidc.authority, provider.oidc.client_id]);
}

/**
 * The provider's discovery document, checked for what the console relies on: it names the
 * configured issuer, and its endpoints are web URLs (the page navigates to one of them).
 */
export async function discover(provider: SignInProviderConfig): Promise<OidcMetadata> {
  let metadata: Partial<OidcMetadata>;
  try {
    metadata = await managerFor(provider).metadataService.getMetadata();
  } catch (error) {
    throw new SignInCallbackError(
      `Its discovery document (${discoveryUrl(provider)}) could not be read: ${errorText(error)}. Check that the issuer URL is right, the provider is up, and it allows this console's origin (CORS).`,
    );
  }
  if (metadata.issuer !== provider.oidc.authority) {
    throw new SignInCallbackError(
      `Its discovery document names the issuer ${clip(String(metadata.issuer))}, not the configured ${provider.oidc.authority}; tokens would carry an issuer the participant does not expect.`,
    );
  }
  for (const field of ['authorization_endpoint', 'token_endpoint'] as const) {
    if (!isWebUrl(metadata[field])) {
      throw new SignInCallbackError(
        `Its discovery document has no usable ${field} (an http or https URL is needed).`,
      );
    }
  }
  if (metadata.end_session_endpoint !== undefined && !isWebUrl(metadata.end_session_endpoint)) {
    throw new SignInCallbackError('Its discovery document has an unusable end_session_endpoint.');
  }
  return metadata as OidcMetadata;
}

/** Leaves for the provider's login page; the promise settles only if that fails. */
export async function startRedirectSignIn(
  provider: SignInProviderConfig,
  returnTo: string,
): Promise<void> {
  await discover(provider);
  const state: SignInState = { returnTo };
  await managerFor(provider).signinRedirect({ state });
}

/**
 * Signs in in a popup, so the page under it (and a half-filled form) stays as it is. The popup
 * lands on {@link POPUP_CALLBACK_PATH}, which hands the answer back here.
 */
export async function signInWithPopup(provider: SignInProviderConfig): Promise<User> {
  await discover(provider);
  try {
    return await managerFor(provider).signinPopup();
  } catch (error) {
    throw new SignInCallbackError(describeProviderError(error));
  }
}

/** In the popup: passes the provider's answer to the page that opened it, and closes. */
export async function completePopupSignIn(url: string): Promise<void> {
  const manager = new UserManager({
    // The popup only forwards the URL to its opener; these are not used to call anyone.
    authority: globalThis.location.origin,
    client_id: 'popup-callback',
    redirect_uri: url,
  });
  await manager.signinPopupCallback(url);
}

/**
 * Completes the redirect back from a provider: finds the sign-in this tab started from the
 * answer's `state`, then exchanges the code (with the PKCE verifier) for tokens.
 */
export async function completeRedirectSignIn(
  providers: readonly SignInProviderConfig[],
  url: string,
): Promise<CompletedSignIn> {
  const params = new URL(url).searchParams;
  const stateId = params.get('state');
  if (!stateId || stateId.length > 256) {
    throw new SignInCallbackError(
      params.has('error')
        ? `The provider answered with an error and no sign-in to attach it to: ${providerErrorText(params.get('error'), params.get('error_description'))}.`
        : 'This address is not a complete answer from a provider (it has no state). Start the sign-in from this page.',
    );
  }
  const stored = pendingSignIn(stateId);
  if (!stored) {
    throw new SignInCallbackError(
      'This answer belongs to no sign-in started in this tab: it was already used, it expired, or it was started elsewhere. Nothing changed here; sign in again.',
    );
  }
  const provider = providers.find(
    (candidate) =>
      candidate.oidc.authority === stored.authority &&
      candidate.oidc.client_id === stored.client_id,
  );
  if (!provider) {
    throw new SignInCallbackError(
      `The sign-in was started with a provider this console no longer offers (${clip(stored.authority)}). Sign in again.`,
    );
  }
  let user: User;
  try {
    user = await managerFor(provider).signinRedirectCallback(url);
  } catch (error) {
    throw new SignInCallbackError(`${provider.name}: ${describeProviderError(error)}`);
  }
  const state = user.state as Partial<SignInState> | undefined;
  return {
    provider,
    user,
    returnTo: typeof state?.returnTo === 'string' ? state.returnTo : undefined,
  };
}

function pendingSignIn(stateId: string): { authority: string; client_id: string } | undefined {
  try {
    const raw = globalThis.sessionStorage.getItem(`${storePrefix()}${stateId}`);
    if (!raw) return undefined;
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { authority, client_id: clientId } = parsed as Record<string, unknown>;
    if (typeof authority !== 'string' || typeof clientId !== 'string') return undefined;
    return { authority, client_id: clientId };
  } catch {
    return undefined;
  }
}

/** The signed-in user this tab keeps for the provider, if any (its tokens, its ID token claims). */
export async function storedUser(provider: SignInProviderConfig): Promise<User | null> {
  return managerFor(provider).getUser();
}

/**
 * Renews the access token with the refresh token; rejects (with the provider's reason) when the
 * provider gave none or refuses it (expired, revoked), so the page asks the person to sign in.
 */
export async function renewWithRefreshToken(provider: SignInProviderConfig): Promise<User> {
  const manager = managerFor(provider);
  const user = await manager.getUser();
  if (!user?.refresh_token) {
    throw new SignInCallbackError(
      `${provider.name} gave no refresh token, so this sign-in cannot be renewed without you`,
    );
  }
  try {
    const renewed = await manager.signinSilent();
    if (!renewed) throw new Error('no user');
    return renewed;
  } catch (error) {
    throw new SignInCallbackError(
      `${provider.name} did not renew the sign-in: ${describeProviderError(error)}`,
    );
  }
}

export type ExpiryWatch = { stop: () => void };

/**
 * Calls `onExpiring` about a minute before the stored access token expires (and again for each
 * renewed one), and `onExpired` when it has. The timers are oidc-client-ts's, loaded from the
 * stored user.
 */
export async function watchExpiry(
  provider: SignInProviderConfig,
  { onExpiring, onExpired }: { onExpiring: () => void; onExpired: () => void },
): Promise<ExpiryWatch> {
  const manager = managerFor(provider);
  manager.events.addAccessTokenExpiring(onExpiring);
  manager.events.addAccessTokenExpired(onExpired);
  // getUser loads the stored user into the event timers.
  await manager.getUser();
  return {
    stop: () => {
      manager.events.removeAccessTokenExpiring(onExpiring);
      manager.events.removeAccessTokenExpired(onExpired);
    },
  };
}

/**
 * Forgets the tab's sign-in and, where the provider offers an end_session_endpoint, ends the
 * provider's session too (leaving the page for it). Returns whether the page is leaving.
 */
export async function signOutAtProvider(provider: SignInProviderConfig): Promise<boolean> {
  const manager = managerFor(provider);
  const user = await manager.getUser().catch(() => null);
  let endSession: string | undefined;
  try {
    endSession = (await discover(provider)).end_session_endpoint;
  } catch {
    endSession = undefined;
  }
  await manager.removeUser();
  if (!endSession || !user) return false;
  await manager.signoutRedirect({
    ...(user.id_token === undefined ? {} : { id_token_hint: user.id_token }),
  });
  return true;
}

function discoveryUrl(provider: SignInProviderConfig): string {
  return `${provider.oidc.authority.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

function describeProviderError(error: unknown): string {
  if (error instanceof ErrorResponse) {
    return providerErrorText(error.error, error.error_description);
  }
  return errorText(error);
}

function providerErrorText(code: string | null, description: string | null | undefined): string {
  const name = clip(code ?? 'error');
  if (name === 'access_denied') return `the sign-in was cancelled or refused (${name})`;
  return description ? `${name}: ${clip(description)}` : name;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'Popup closed by user') return 'the sign-in window was closed';
  if (/^No matching state/i.test(message)) return 'the answer matches no sign-in of this tab';
  return clip(message);
}

function clip(text: string): string {
  return text.length > MAX_PROVIDER_TEXT ? `${text.slice(0, MAX_PROVIDER_TEXT)}…` : text;
}
