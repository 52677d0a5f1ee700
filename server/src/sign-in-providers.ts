import { readFileSync, statSync } from 'node:fs';
import {
  PARTICIPANT_NAME_PATTERN,
  type ServedSignInProvider,
} from '@ledger-console/edge/console-api';
import { idStringProblem, LEDGER_STRING } from '@ledger-console/participant/identifiers';

/**
 * One OpenID Connect provider the console offers on its sign-in page (issue 14), as `npm start`
 * was given it. Public clients only: the browser runs Authorization Code + PKCE, so there is no
 * secret to configure.
 */
export type SignInProvider = {
  /** Stable key: the SPA names its stored session and callback state after it. */
  id: string;
  /** What the sign-in page shows. */
  name: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  audience?: string;
  resource?: string;
  extraAuthorizeParams: Record<string, string>;
  /** The Canton IdP its users belong to: '' for the participant's default IdP. */
  identityProviderId: string;
  /**
   * The console's participants it is offered for (`participants` in `--sign-in-config`); every
   * participant when absent. One provider may serve several: OpenID providers can be shared.
   */
  participants?: string[];
};

export const MAX_SIGN_IN_CONFIG_BYTES = 256 * 1024;
export const MAX_SIGN_IN_PROVIDERS = 32;

/** The `--oidc-*` flags, one provider's worth. */
export const OIDC_FLAGS = {
  issuer: '--oidc-issuer',
  clientId: '--oidc-client-id',
  scopes: '--oidc-scope',
  audience: '--oidc-audience',
  resource: '--oidc-resource',
  name: '--oidc-name',
  identityProviderId: '--oidc-idp',
} as const;

export type OidcFlagValues = Partial<Record<keyof typeof OIDC_FLAGS, string>>;

export type SignInProvidersResult =
  { ok: true; providers: SignInProvider[] } | { ok: false; message: string };

const PROVIDER_KEYS = [
  'id',
  'name',
  'issuer',
  'clientId',
  'scopes',
  'audience',
  'resource',
  'extraAuthorizeParams',
  'identityProviderId',
  'participants',
] as const;

// Parameters oidc-client-ts sets itself (or the provider's own fields set): a second value would
// break the flow or silently override a checked field.
const RESERVED_AUTHORIZE_PARAMS = new Set([
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'request',
  'request_uri',
  'audience',
  'resource',
]);

const SECRET_KEYS = new Set(['clientSecret', 'client_secret', 'secret']);
const PROVIDER_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
// RFC 6749 §3.3 scope-token.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
const MAX_TEXT = 255;

type Problem = { field: string; message: string };

/** One provider from the `--oidc-*` flags; `undefined` when none is given. */
export function providerFromFlags(flags: OidcFlagValues): SignInProvidersResult | undefined {
  const keys = Object.keys(OIDC_FLAGS) as (keyof typeof OIDC_FLAGS)[];
  if (keys.every((key) => flags[key] === undefined)) return undefined;
  const problems: Problem[] = [];
  if (flags.issuer === undefined) problems.push({ field: 'issuer', message: 'is required' });
  if (flags.clientId === undefined) problems.push({ field: 'clientId', message: 'is required' });
  if (problems.length > 0) return failure(problems.map((p) => flagMessage(p)));

  const raw: Record<string, unknown> = {
    id: 'default',
    name: flags.name ?? hostOf(flags.issuer ?? ''),
    issuer: flags.issuer,
    clientId: flags.clientId,
    // Without an audience, Canton accepts a token by its daml_ledger_api scope.
    scopes:
      flags.scopes === undefined
        ? flags.audience === undefined && flags.resource === undefined
          ? ['openid', 'daml_ledger_api']
          : ['openid']
        : flags.scopes.split(/[\s,]+/).filter((scope) => scope !== ''),
  };
  if (flags.audience !== undefined) raw.audience = flags.audience;
  if (flags.resource !== undefined) raw.resource = flags.resource;
  if (flags.identityProviderId !== undefined) raw.identityProviderId = flags.identityProviderId;
  const checked = checkProvider(raw);
  if (checked.problems.length > 0) return failure(checked.problems.map((p) => flagMessage(p)));
  return { ok: true, providers: [checked.provider as SignInProvider] };
}

/** Reads and checks a `--sign-in-config` file, named as given in every message. */
export function readSignInConfigFile(file: string): SignInProvidersResult {
  let text: string;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { ok: false, message: `${file}: is not a regular file` };
    if (stat.size > MAX_SIGN_IN_CONFIG_BYTES) return tooLarge(file);
    const bytes = readFileSync(file);
    // The file may have grown between the two calls.
    if (bytes.length > MAX_SIGN_IN_CONFIG_BYTES) return tooLarge(file);
    text = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, message: `${file}: cannot be read (${code ?? String(error)})` };
  }
  return parseSignInConfig(file, text);
}

/** Checks a sign-in configuration file's text. Pure: `label` only names it in messages. */
export function parseSignInConfig(label: string, text: string): SignInProvidersResult {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${label}: is not valid JSON (${(error as Error).message})` };
  }
  if (!isPlainObject(document)) {
    return { ok: false, message: `${label}: must be a JSON object with a "providers" array` };
  }
  const messages: string[] = [];
  for (const key of Object.keys(document)) {
    if (key !== 'providers') messages.push(`${label}: ${key}: unknown field`);
  }
  const list = document.providers;
  if (!Array.isArray(list)) {
    messages.push(`${label}: providers: must be an array of providers`);
    return failure(messages);
  }
  if (list.length === 0) messages.push(`${label}: providers: must list at least one provider`);
  if (list.length > MAX_SIGN_IN_PROVIDERS) {
    messages.push(
      `${label}: providers: at most ${String(MAX_SIGN_IN_PROVIDERS)} providers, got ${String(list.length)}`,
    );
    return failure(messages);
  }
  const providers: SignInProvider[] = [];
  const firstIndexOfId = new Map<string, number>();
  list.forEach((raw: unknown, index) => {
    const id = isPlainObject(raw) && typeof raw.id === 'string' ? raw.id : undefined;
    const where = `${label}: providers[${String(index)}]${id === undefined ? '' : ` (${JSON.stringify(id)})`}`;
    if (!isPlainObject(raw)) {
      messages.push(`${where}: must be an object`);
      return;
    }
    const checked = checkProvider(raw);
    for (const problem of checked.problems) {
      messages.push(`${where}: ${problem.field}: ${problem.message}`);
    }
    if (id !== undefined && PROVIDER_ID.test(id)) {
      const first = firstIndexOfId.get(id);
      if (first === undefined) firstIndexOfId.set(id, index);
      else messages.push(`${where}: id: duplicates providers[${String(first)}]`);
    }
    if (checked.problems.length === 0) providers.push(checked.provider as SignInProvider);
  });
  return messages.length > 0 ? failure(messages) : { ok: true, providers };
}

/** The providers as the SPA receives them: oidc-client-ts settings, nothing else. */
export function servedSignInProviders(
  providers: readonly SignInProvider[],
): ServedSignInProvider[] {
  return providers.map((provider) => {
    const extraQueryParams: Record<string, string> = { ...provider.extraAuthorizeParams };
    if (provider.audience !== undefined) extraQueryParams.audience = provider.audience;
    if (provider.resource !== undefined) extraQueryParams.resource = provider.resource;
    return {
      id: provider.id,
      name: provider.name,
      identityProviderId: provider.identityProviderId,
      oidc: {
        authority: provider.issuer,
        client_id: provider.clientId,
        scope: provider.scopes.join(' '),
        extraQueryParams,
      },
    };
  });
}

function checkProvider(raw: Record<string, unknown>): {
  provider: Partial<SignInProvider>;
  problems: Problem[];
} {
  const problems: Problem[] = [];
  const problem = (field: string, message: string) => {
    problems.push({ field, message });
  };
  for (const key of Object.keys(raw)) {
    if (SECRET_KEYS.has(key)) {
      problem(
        key,
        'not allowed: the console is a public client (Authorization Code + PKCE) and keeps no secret',
      );
    } else if (!(PROVIDER_KEYS as readonly string[]).includes(key)) {
      problem(key, 'unknown field');
    }
  }
  const provider: Partial<SignInProvider> = {};

  const id = text(raw, 'id', problem);
  if (id !== undefined) {
    if (PROVIDER_ID.test(id)) provider.id = id;
    else {
      problem(
        'id',
        'must be 1 to 64 lowercase letters, digits and inner hyphens, e.g. "corporate-sso"',
      );
    }
  }
  const name = text(raw, 'name', problem);
  if (name !== undefined) provider.name = name;

  const issuer = text(raw, 'issuer', problem);
  if (issuer !== undefined) {
    const issue = issuerProblem(issuer);
    if (issue) problem('issuer', issue);
    else provider.issuer = issuer;
  }
  const clientId = text(raw, 'clientId', problem);
  if (clientId !== undefined) provider.clientId = clientId;

  const scopes = raw.scopes;
  if (scopes === undefined) problem('scopes', 'is required, e.g. ["openid", "daml_ledger_api"]');
  else if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) {
    problem('scopes', 'must be an array of strings');
  } else {
    const list = scopes as string[];
    const bad = list.find((scope) => !SCOPE_TOKEN.test(scope));
    if (bad !== undefined) problem('scopes', `${JSON.stringify(bad)} is not a single scope`);
    else if (new Set(list).size !== list.length) problem('scopes', 'lists a scope twice');
    else if (!list.includes('openid')) problem('scopes', 'must include "openid"');
    else provider.scopes = list;
  }

  if (raw.audience !== undefined) {
    const audience = text(raw, 'audience', problem);
    if (audience !== undefined) provider.audience = audience;
  }
  if (raw.resource !== undefined) {
    const resource = text(raw, 'resource', problem);
    if (resource !== undefined) {
      // RFC 8707 §2: an absolute URI without a fragment.
      if (!URL.canParse(resource) || new URL(resource).hash !== '' || resource.includes('#')) {
        problem('resource', 'must be an absolute URI without a fragment');
      } else provider.resource = resource;
    }
  }

  provider.extraAuthorizeParams = {};
  const extra = raw.extraAuthorizeParams;
  if (extra !== undefined) {
    if (!isPlainObject(extra)) problem('extraAuthorizeParams', 'must be an object of strings');
    else {
      for (const [key, value] of Object.entries(extra)) {
        const field = `extraAuthorizeParams.${key}`;
        if (RESERVED_AUTHORIZE_PARAMS.has(key)) {
          const own = key === 'audience' || key === 'resource' ? ` (use the "${key}" field)` : '';
          problem(field, `is set by the sign-in flow itself${own}`);
        } else if (key === '' || CONTROL_CHARS.test(key)) {
          problem(field, 'is not a parameter name');
        } else if (typeof value !== 'string') problem(field, 'must be a string');
        else if (CONTROL_CHARS.test(value)) problem(field, 'must not contain control characters');
        else provider.extraAuthorizeParams[key] = value;
      }
    }
  }

  const idp = raw.identityProviderId;
  if (idp === undefined || idp === '') provider.identityProviderId = '';
  else if (typeof idp !== 'string') problem('identityProviderId', 'must be a string');
  else {
    const issue = idStringProblem(LEDGER_STRING, idp);
    if (issue === undefined) provider.identityProviderId = idp;
    else {
      problem(
        'identityProviderId',
        issue.kind === 'too-long'
          ? `is longer than ${String(issue.maxLength)} characters`
          : `${JSON.stringify(issue.kind === 'bad-char' ? issue.char : '')} is not allowed in an identity provider id (letters, digits, space and ._:-#/ only); "" is the default IdP`,
      );
    }
  }
  const participants = raw.participants;
  if (participants !== undefined) {
    if (
      !Array.isArray(participants) ||
      participants.length === 0 ||
      participants.some((name) => typeof name !== 'string')
    ) {
      problem(
        'participants',
        'must be a non-empty array of participant names, e.g. ["participant1"]',
      );
    } else {
      const names = participants as string[];
      const bad = names.find((name) => !PARTICIPANT_NAME_PATTERN.test(name));
      if (bad !== undefined) {
        problem('participants', `${JSON.stringify(bad.slice(0, 64))} is not a participant name`);
      } else if (new Set(names).size !== names.length) {
        problem('participants', 'lists a participant twice');
      } else provider.participants = names;
    }
  }
  return { provider, problems };
}

/**
 * A message when a provider names a participant the console does not have, so a typo stops the
 * start instead of hiding the provider; undefined when every name is known.
 */
export function unknownSignInParticipants(
  providers: readonly SignInProvider[],
  known: readonly string[],
): string | undefined {
  for (const provider of providers) {
    const unknown = provider.participants?.find((name) => !known.includes(name));
    if (unknown !== undefined) {
      return `sign-in provider ${provider.id} names participant ${unknown}, which this console does not have (it has ${known.join(', ')})`;
    }
  }
  return undefined;
}

/** A required non-empty, single-line string field. */
function text(
  raw: Record<string, unknown>,
  field: string,
  problem: (field: string, message: string) => void,
): string | undefined {
  const value = raw[field];
  if (value === undefined) problem(field, 'is required');
  else if (typeof value !== 'string') problem(field, 'must be a string');
  else if (value.trim() === '') problem(field, 'must not be empty');
  else if (value.length > MAX_TEXT) problem(field, `is longer than ${String(MAX_TEXT)} characters`);
  else if (CONTROL_CHARS.test(value)) problem(field, 'must not contain control characters');
  else return value;
  return undefined;
}

function issuerProblem(issuer: string): string | undefined {
  if (!URL.canParse(issuer)) return 'must be an absolute https URL';
  const url = new URL(issuer);
  const loopback = isLoopback(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return 'must be an absolute https URL (http only on loopback)';
  }
  if (url.username || url.password) return 'must not contain credentials';
  // OpenID Connect Discovery §2: the issuer has no query or fragment.
  if (url.search || url.hash || issuer.includes('?') || issuer.includes('#')) {
    return 'must not have a query or fragment';
  }
  return undefined;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

function hostOf(issuer: string): string {
  return URL.canParse(issuer) ? new URL(issuer).host : issuer;
}

function flagMessage(problem: Problem): string {
  const flag = (OIDC_FLAGS as Record<string, string | undefined>)[problem.field];
  return `${flag ?? problem.field}: ${problem.message}`;
}

function tooLarge(file: string): SignInProvidersResult {
  return {
    ok: false,
    message: `${file}: is larger than ${String(MAX_SIGN_IN_CONFIG_BYTES / 1024)} KiB`,
  };
}

function failure(messages: string[]): SignInProvidersResult {
  return { ok: false, message: messages.join('\n') };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
