import {
  idStringProblem,
  LEDGER_STRING,
  USER_ID_STRING,
} from '@ledger-console/participant/identifiers';
import { isWebUrl } from '@/lib/text/is-web-url';

/**
 * An access request: a person signed in at an OpenID provider but has no user on the participant,
 * and sends this to an IdP admin as a link. Nothing is stored anywhere: the link is the request.
 * Whoever opens it meets input anyone could have typed, so it is parsed like a form and shown as
 * plain text for review.
 */
export type AccessRequest = {
  /** The `iss` of the person's token. */
  issuer: string;
  /** The `sub`: the user id an admin creates for them. */
  subject: string;
  /** The Canton IdP the console's provider belongs to ('' for the default IdP). */
  identityProviderId: string;
  /** From the ID token, as the provider stated them. */
  name?: string;
  email?: string;
  /** In the person's own words: what they need to do. */
  requestedAccess?: string;
};

/** The version of the link's parameters; a later format bumps it. */
export const ACCESS_REQUEST_VERSION = '1';

export const ACCESS_REQUEST_LIMITS = {
  issuer: 2048,
  name: 200,
  email: 254,
  requestedAccess: 500,
} as const;

const PARAMS = {
  version: 'v',
  issuer: 'iss',
  subject: 'sub',
  identityProviderId: 'idp',
  name: 'name',
  email: 'email',
  requestedAccess: 'access',
} as const;

/** The query string of a request link (without `?`); the caller puts it on the review page. */
export function accessRequestQuery(request: AccessRequest): string {
  const params = new URLSearchParams({ [PARAMS.version]: ACCESS_REQUEST_VERSION });
  params.set(PARAMS.issuer, request.issuer);
  params.set(PARAMS.subject, request.subject);
  if (request.identityProviderId) params.set(PARAMS.identityProviderId, request.identityProviderId);
  if (request.name) params.set(PARAMS.name, clip(request.name, ACCESS_REQUEST_LIMITS.name));
  if (request.email) params.set(PARAMS.email, clip(request.email, ACCESS_REQUEST_LIMITS.email));
  if (request.requestedAccess) {
    params.set(
      PARAMS.requestedAccess,
      clip(request.requestedAccess, ACCESS_REQUEST_LIMITS.requestedAccess),
    );
  }
  return params.toString();
}

export type ParsedAccessRequest =
  { ok: true; request: AccessRequest; warnings: string[] } | { ok: false; problems: string[] };

/**
 * Reads a request link's parameters. Problems make it unusable (no subject, an issuer that is not
 * a web URL, a field beyond its bound, control characters); warnings are worth a look before
 * acting on it (a subject Canton cannot take as a user id).
 */
export function parseAccessRequest(params: URLSearchParams): ParsedAccessRequest {
  const problems: string[] = [];
  const warnings: string[] = [];
  const version = params.get(PARAMS.version);
  if (version !== ACCESS_REQUEST_VERSION) {
    problems.push(
      version === null
        ? 'This is not an access request link (it has no version).'
        : `This link has an access request format this console does not know (version ${clip(version, 16)}).`,
    );
    return { ok: false, problems };
  }
  const text = (key: string, label: string, max: number, required: boolean) => {
    const all = params.getAll(key);
    if (all.length > 1) problems.push(`The link names the ${label} more than once.`);
    const value = all[0]?.trim() ?? '';
    if (value === '') {
      if (required) problems.push(`The link has no ${label}.`);
      return undefined;
    }
    if (value.length > max) {
      problems.push(`The ${label} is longer than ${String(max)} characters.`);
      return undefined;
    }
    // eslint-disable-next-line no-control-regex -- exactly the characters refused
    if (/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(value)) {
      problems.push(`The ${label} contains control or direction-changing characters.`);
      return undefined;
    }
    return value;
  };

  const issuer = text(PARAMS.issuer, 'issuer', ACCESS_REQUEST_LIMITS.issuer, true);
  if (issuer !== undefined && !isWebUrl(issuer)) {
    problems.push('The issuer is not an http or https URL.');
  }
  const subject = text(PARAMS.subject, 'subject', 1024, true);
  if (subject !== undefined && idStringProblem(USER_ID_STRING, subject)) {
    warnings.push(
      `The subject "${subject}" is not a valid Canton user id, so no user can be created for it as it is: the provider must issue another subject, or the participant must map it.`,
    );
  }
  const identityProviderId = text(PARAMS.identityProviderId, 'identity provider', 255, false) ?? '';
  if (identityProviderId && idStringProblem(LEDGER_STRING, identityProviderId)) {
    problems.push('The identity provider id is not a valid identifier.');
  }
  const name = text(PARAMS.name, 'name', ACCESS_REQUEST_LIMITS.name, false);
  const email = text(PARAMS.email, 'email', ACCESS_REQUEST_LIMITS.email, false);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email)) {
    problems.push('The email is not an email address.');
  }
  const requestedAccess = text(
    PARAMS.requestedAccess,
    'requested access',
    ACCESS_REQUEST_LIMITS.requestedAccess,
    false,
  );

  if (problems.length > 0 || issuer === undefined || subject === undefined) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    request: {
      issuer,
      subject,
      identityProviderId,
      ...(name === undefined ? {} : { name }),
      ...(email === undefined ? {} : { email }),
      ...(requestedAccess === undefined ? {} : { requestedAccess }),
    },
    warnings,
  };
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
