/**
 * The token doctor (issue 14): Canton-specific verdicts on a bearer token, each with its fix.
 * Canton answers every authentication failure with a masked 401/403, so this is where a person
 * learns why. Pure: the feature gathers the context (providers, IdP configurations, the user and
 * its rights) and renders the verdicts as plain text; the token is untrusted and never verified.
 * Canton's rules: ledger-api-behaviour.md §4.2–4.4 and §2.2 (user ids).
 */
import { idStringProblem, USER_ID_STRING } from '@ledger-console/participant/identifiers';
import type { UserRight } from '@/lib/access/access-rights';
import { isolateIdentifier, revealControls } from '@/lib/text/display-text';
import { claimsOf, decodeJwtSegment, type TokenClaims } from '@/lib/access/token-claims';

/** Larger input is not decoded: no IdP issues such tokens, and headers that size are refused. */
export const MAX_TOKEN_BYTES = 16 * 1024;

/**
 * How far this browser's clock may be from the participant's. Canton verifies `exp`, `nbf` and
 * `iat` with no leeway unless its `jwt-timestamp-leeway` is configured, so a time within this
 * margin of now may go either way; beyond it the verdict is certain.
 */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/** A token that expires within this is still accepted, but not for long. */
export const EXPIRES_SOON_SECONDS = 5 * 60;

export const PARTICIPANT_AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

const LEDGER_API_SCOPE = 'daml_ledger_api';
const MAX_SHOWN_CHARS = 120;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export type VerdictStatus = 'ok' | 'warning' | 'problem' | 'unknown';

export type Verdict = {
  id: VerdictId;
  title: string;
  status: VerdictStatus;
  /** What the doctor found, in plain text (claim values quoted, never markup). */
  finding: string;
  /** One sentence: what to do about it; set for every problem and most warnings. */
  fix?: string;
};

export type VerdictId =
  | 'size'
  | 'structure'
  | 'participant-auth'
  | 'algorithm'
  | 'header'
  | 'issuer'
  | 'token-form'
  | 'participant-audience'
  | 'idp-audience'
  | 'provider-audience'
  | 'expiry'
  | 'not-before'
  | 'issued-at'
  | 'subject'
  | 'user'
  | 'rights';

/** A sign-in provider of this console (GET /__console/sign-in-providers). */
export type SignInProviderInfo = {
  id: string;
  name: string;
  /** The OpenID issuer (`oidc.authority`). */
  issuer: string;
  /** The participant IdP its users belong to; `''` is the default IdP. */
  identityProviderId: string;
  audience?: string;
};

/** An IdP configuration of the participant (GET /v2/idps). */
export type IdentityProviderInfo = {
  identityProviderId: string;
  issuer: string;
  isDeactivated: boolean;
  /** `''` when unset. */
  audience: string;
};

/** What a lookup made with the console's current sign-in found. */
export type Lookup<T> =
  | { status: 'found'; value: T }
  | { status: 'not-found' }
  | { status: 'forbidden' }
  /** Nobody is signed in to the console, so the participant was not asked. */
  | { status: 'signed-out' }
  | { status: 'failed'; message: string };

export type UserRecord = { id: string; isDeactivated: boolean; identityProviderId: string };

export type DoctorContext = {
  /** Milliseconds since the epoch. */
  now: number;
  clockSkewSeconds?: number;
  /** `undefined`: the console server did not say (no server, or an older one). */
  providers?: readonly SignInProviderInfo[];
  /** From GET /v2/parties/participant-id; `undefined` when it could not be read. */
  participantId?: string;
  /** Only a participant admin may list them; `undefined` when not asked. */
  identityProviders?: Lookup<readonly IdentityProviderInfo[]>;
  /** The token's user, looked up in {@link identityProviderOfToken}'s IdP. */
  user?: Lookup<UserRecord>;
  rights?: Lookup<readonly UserRight[]>;
  /** Whether the console's current sign-in is a participant admin (reads every IdP's users). */
  callerIsParticipantAdmin?: boolean;
  /**
   * The participant answered the console without any token as a caller with every right: it runs
   * without auth services, and ignores tokens altogether.
   */
  participantIgnoresTokens?: boolean;
};

export type InspectedToken =
  | { kind: 'unreadable'; verdicts: Verdict[] }
  | {
      kind: 'jwt';
      header: Record<string, unknown>;
      payload: Record<string, unknown>;
      claims: TokenClaims;
      hasSignature: boolean;
      verdicts: Verdict[];
    };

/** A pasted token often carries a `Bearer ` prefix or a terminal's line breaks. */
export function normalizePastedToken(text: string): string {
  return text.replace(/^\s*Bearer\s+/i, '').replace(/\s+/g, '');
}

/** Size and structure: the token decoded without verifying, or why it cannot be. */
export function inspectToken(token: string): InspectedToken {
  const bytes = new TextEncoder().encode(token).length;
  if (bytes > MAX_TOKEN_BYTES) {
    return {
      kind: 'unreadable',
      verdicts: [
        {
          id: 'size',
          title: 'Size',
          status: 'problem',
          finding: `The text is ${kib(bytes)}; the doctor reads tokens up to ${kib(MAX_TOKEN_BYTES)}, and no participant takes a header that large.`,
          fix: 'Paste only the token (the three dot-separated parts), not a whole response or log.',
        },
      ],
    };
  }
  const structure = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'structure',
    title: 'Structure',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const unreadable = (finding: string, fix: string): InspectedToken => ({
    kind: 'unreadable',
    verdicts: [structure('problem', finding, fix)],
  });
  if (token === '')
    return unreadable('There is no token.', 'Paste a token, or use your current one.');
  const parts = token.split('.');
  if (parts.length === 5) {
    return unreadable(
      'This has five parts: an encrypted token (JWE), which Canton cannot read.',
      'Ask the identity provider for a signed access token (JWS, three parts) instead of an encrypted one.',
    );
  }
  if (parts.length !== 3) {
    return unreadable(
      `A JSON Web Token has three base64url parts separated by dots; this has ${String(parts.length)}.`,
      'Copy the whole access token (not an ID token, an opaque token or a part of one).',
    );
  }
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const badPart = [headerPart, payloadPart, signaturePart].findIndex((p) => !BASE64URL.test(p));
  if (badPart !== -1) {
    return unreadable(
      `The ${['header', 'payload', 'signature'][badPart] ?? ''} holds characters outside base64url (A–Z, a–z, 0–9, - and _).`,
      'Copy the token again as it is, without quotes, padding (=) or other characters around it.',
    );
  }
  const header = jsonObject(headerPart);
  if (header === undefined) {
    return unreadable(
      'The header is not base64url-encoded JSON object.',
      'Copy the whole token again; its first part is damaged.',
    );
  }
  const payload = jsonObject(payloadPart);
  if (payload === undefined) {
    return unreadable(
      'The payload is not a base64url-encoded JSON object.',
      'Copy the whole token again; its middle part is damaged.',
    );
  }
  const hasSignature = signaturePart !== '';
  return {
    kind: 'jwt',
    header,
    payload,
    claims: claimsOf(payload),
    hasSignature,
    verdicts: [
      hasSignature
        ? structure('ok', 'Three base64url parts; the header and payload are JSON objects.')
        : structure(
            'problem',
            'The header and payload are JSON, but the signature part is empty: the token is unsigned.',
            'Use a token signed by your identity provider; the participant refuses unsigned tokens (401).',
          ),
    ],
  };
}

/**
 * The IdP Canton takes the token's user from (§4.4): the active IdP configuration with the
 * token's issuer, else the default IdP (`''`). `certain` is false when the IdP configurations
 * could not be read and a sign-in provider's word (or the default) stands in for them.
 */
export function identityProviderOfToken(
  claims: Pick<TokenClaims, 'issuer'>,
  context: Pick<DoctorContext, 'providers' | 'identityProviders'>,
): { identityProviderId: string; certain: boolean } {
  const issuer = claims.issuer;
  if (issuer === undefined) return { identityProviderId: '', certain: true };
  const configs = context.identityProviders;
  if (configs?.status === 'found') {
    const active = configs.value.find((idp) => idp.issuer === issuer && !idp.isDeactivated);
    return { identityProviderId: active?.identityProviderId ?? '', certain: true };
  }
  const provider = context.providers?.find((p) => p.issuer === issuer);
  return { identityProviderId: provider?.identityProviderId ?? '', certain: false };
}

/**
 * The user to look up for a token: its valid `sub` in the IdP the token selects, or undefined
 * when there is no user id a participant would accept.
 */
export function userToLookUp(
  claims: Pick<TokenClaims, 'issuer' | 'subject'>,
  context: Pick<DoctorContext, 'providers' | 'identityProviders'>,
): { userId: string; identityProviderId: string } | undefined {
  const userId = claims.subject;
  if (userId === undefined || idStringProblem(USER_ID_STRING, userId) !== undefined) {
    return undefined;
  }
  return {
    userId,
    identityProviderId: identityProviderOfToken(claims, context).identityProviderId,
  };
}

/** Every verdict on `token` in order, from its structure to the rights of its user. */
export function diagnoseToken(token: string, context: DoctorContext): Verdict[] {
  const inspected = inspectToken(token);
  if (inspected.kind === 'unreadable') return inspected.verdicts;
  const skew = context.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  const { header, payload, claims } = inspected;
  const idp = identityProviderOfToken(claims, context);
  const matchedConfig =
    context.identityProviders?.status === 'found' && claims.issuer !== undefined
      ? context.identityProviders.value.find(
          (config) => config.issuer === claims.issuer && !config.isDeactivated,
        )
      : undefined;
  const subject = subjectVerdict(payload);
  return [
    ...inspected.verdicts,
    ...(context.participantIgnoresTokens
      ? [
          {
            id: 'participant-auth',
            title: 'Participant authentication',
            status: 'warning',
            finding:
              'This participant answers requests without any token as if they had every right: it runs without auth services and ignores tokens, so it accepts this one whatever it holds. The verdicts below say what a participant with auth would make of it.',
            fix: 'Nothing to fix in the token here; configure auth services on the participant before anyone depends on it.',
          } satisfies Verdict,
        ]
      : []),
    algorithmVerdict(header, matchedConfig),
    headerVerdict(header),
    issuerVerdict(claims, header, context),
    tokenFormVerdict(claims, matchedConfig),
    participantAudienceVerdict(claims, context.participantId, idp.identityProviderId),
    ...(matchedConfig?.audience ? [idpAudienceVerdict(claims, matchedConfig)] : []),
    ...providerAudienceVerdicts(claims, context.providers),
    expiryVerdict(payload, context.now, skew),
    notBeforeVerdict(payload, context.now, skew),
    issuedAtVerdict(payload, context.now, skew),
    subject,
    userVerdict(claims, subject.status === 'ok', idp, context),
    rightsVerdict(context.user, context.rights),
  ];
}

// ── header ─────────────────────────────────────────────────────────────────────

function algorithmVerdict(
  header: Record<string, unknown>,
  matchedConfig: IdentityProviderInfo | undefined,
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'algorithm',
    title: 'Signing algorithm (alg)',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const alg = header.alg;
  if (typeof alg !== 'string' || alg === '') {
    return verdict(
      'problem',
      'The header names no alg, so no auth service can verify the token (401).',
      'Use a token from an identity provider that signs with RS256 (or ES256/ES512).',
    );
  }
  if (alg.toLowerCase() === 'none') {
    return verdict(
      'problem',
      'alg is "none": an unsigned token, which every Canton auth service refuses (401).',
      'Use a token signed by your identity provider (RS256 for JWKS and IdP configurations).',
    );
  }
  if (alg === 'HS256') {
    return matchedConfig
      ? verdict(
          'problem',
          `HS256 (a shared secret), but its issuer is IdP configuration ${quote(matchedConfig.identityProviderId)}, which verifies RS256 signatures with keys from its JWKS URL (401).`,
          'Sign the token with the RS256 key the IdP publishes in its JWKS, or drop the iss claim for the shared-secret service.',
        )
      : verdict(
          'warning',
          'HS256 (a shared secret): only an unsafe-jwt-hmac-256 auth service accepts it, which is meant for development and tests; JWKS services and IdP configurations refuse it.',
          'Fine against a development participant configured with that secret; in production, use an RS256 token from your identity provider.',
        );
  }
  if (alg === 'RS256') {
    return verdict(
      'ok',
      'RS256: accepted by JWKS services (jwt-jwks), IdP configurations and jwt-rs-256-crt.',
    );
  }
  if (alg === 'ES256' || alg === 'ES512') {
    return matchedConfig
      ? verdict(
          'warning',
          `${alg}: accepted by a jwt-${alg.toLowerCase()}-crt auth service, but the token's issuer is IdP configuration ${quote(matchedConfig.identityProviderId)}, whose JWKS verification expects RS256.`,
          'Configure the identity provider to sign access tokens with RS256.',
        )
      : verdict(
          'ok',
          `${alg}: accepted by an auth service configured with jwt-${alg.toLowerCase()}-crt and the signer's certificate.`,
        );
  }
  return verdict(
    'problem',
    `${quote(alg)}: Canton's auth services verify RS256, ES256, ES512 and (unsafe) HS256 only, so the participant answers 401.`,
    'Configure the identity provider to sign access tokens for this client with RS256.',
  );
}

function headerVerdict(header: Record<string, unknown>): Verdict {
  const { typ, kid, alg } = header;
  const facts: string[] = [];
  if (typeof typ === 'string') facts.push(`typ is ${quote(typ)}`);
  else facts.push('no typ (Canton does not need one)');
  const needsKid = typeof alg === 'string' && /^(RS|ES|PS)/.test(alg);
  if (typeof kid === 'string' && kid !== '') {
    facts.push(`kid is ${quote(kid)}`);
    return {
      id: 'header',
      title: 'Key id and type (kid, typ)',
      status: 'ok',
      finding: `In the header: ${facts.join(', ')}.`,
    };
  }
  if (!needsKid) {
    facts.push('no kid (not needed for this algorithm)');
    return {
      id: 'header',
      title: 'Key id and type (kid, typ)',
      status: 'ok',
      finding: `In the header: ${facts.join(', ')}.`,
    };
  }
  return {
    id: 'header',
    title: 'Key id and type (kid, typ)',
    status: 'warning',
    finding: `In the header: ${facts.join(', ')}, and no kid: JWKS services and IdP configurations pick the verification key by kid, so they refuse it; only a certificate service (jwt-rs-256-crt and the like) can verify it.`,
    fix: 'Configure the identity provider to put the signing key id (kid) in the token header.',
  };
}

// ── issuer ─────────────────────────────────────────────────────────────────────

function issuerVerdict(
  claims: TokenClaims,
  header: Record<string, unknown>,
  context: DoctorContext,
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'issuer',
    title: 'Issuer (iss)',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const issuer = claims.issuer;
  const providers = context.providers;
  const configs = context.identityProviders;
  if (issuer === undefined) {
    return verdict(
      'ok',
      "No iss: no IdP configuration can match it, so only the participant's own auth services (its configuration file) can verify it, and its user is looked up in the default IdP.",
    );
  }
  const provider = providers?.find((p) => p.issuer === issuer);
  const nearProvider = provider
    ? undefined
    : providers?.find((p) => trimSlash(p.issuer) === trimSlash(issuer));
  const providerNote = provider
    ? ` It is the issuer of this console's sign-in provider ${quote(provider.name)}.`
    : '';

  if (configs?.status === 'found') {
    const active = configs.value.find((c) => c.issuer === issuer && !c.isDeactivated);
    const inactive = configs.value.find((c) => c.issuer === issuer && c.isDeactivated);
    const near = configs.value.find(
      (c) => c.issuer !== issuer && trimSlash(c.issuer) === trimSlash(issuer),
    );
    if (active) {
      if (provider && provider.identityProviderId !== active.identityProviderId) {
        return verdict(
          'warning',
          `Canton picks IdP configuration ${quote(active.identityProviderId)} for ${quote(issuer)}, but this console's sign-in provider ${quote(provider.name)} says its users are in ${idpName(provider.identityProviderId)}.`,
          `Set the sign-in provider's identityProviderId to ${quote(active.identityProviderId)} in the console's sign-in configuration.`,
        );
      }
      return verdict(
        'ok',
        `Canton picks IdP configuration ${quote(active.identityProviderId)}: its issuer is ${quote(issuer)}; the token is verified with that configuration's JWKS keys and its user is looked up in that IdP.${providerNote}`,
      );
    }
    if (inactive) {
      return verdict(
        'problem',
        `IdP configuration ${quote(inactive.identityProviderId)} has issuer ${quote(issuer)} but is deactivated, so Canton ignores it: the participant answers 401 unless its own auth services verify the token.`,
        `Reactivate IdP configuration ${quote(inactive.identityProviderId)} (Identity providers), or use a token of an active issuer.`,
      );
    }
    if (near) {
      return verdict(
        'problem',
        `No active IdP configuration has issuer ${quote(issuer)}; ${quote(near.identityProviderId)} has ${quote(near.issuer)}, and Canton compares issuers exactly (401).`,
        `Make IdP configuration ${quote(near.identityProviderId)}'s issuer exactly ${quote(issuer)}, trailing slash included.`,
      );
    }
    if (header.alg === 'HS256') {
      return verdict(
        'warning',
        `No IdP configuration has issuer ${quote(issuer)}; an unsafe-jwt-hmac-256 service ignores iss, so only the shared secret decides.${providerNote}`,
      );
    }
    if (provider?.identityProviderId === '') {
      return verdict(
        'ok',
        `No IdP configuration has this issuer; this console's sign-in provider ${quote(provider.name)} signs in to the default IdP, which the participant's own auth services (its configuration file) must trust.`,
      );
    }
    if (provider) {
      return verdict(
        'problem',
        `This console's sign-in provider ${quote(provider.name)} says its users are in IdP ${quote(provider.identityProviderId)}, but no active IdP configuration has issuer ${quote(issuer)}: the participant answers 401.`,
        `Create IdP configuration ${quote(provider.identityProviderId)} with issuer ${quote(issuer)} and the provider's JWKS URL (Identity providers → New).`,
      );
    }
    return verdict(
      'problem',
      `Unknown issuer ${quote(issuer)}: no active IdP configuration has it, so unless the participant's own auth services verify this token's signature, the participant answers 401.`,
      'Add an IdP configuration with this issuer and its JWKS URL, or get a token from an issuer this participant trusts.',
    );
  }

  const whyUnknown =
    configs?.status === 'forbidden'
      ? 'Your current sign-in may not list IdP configurations (a participant admin can).'
      : configs?.status === 'signed-out'
        ? 'Sign in as a participant admin to check it against the IdP configurations.'
        : configs?.status === 'failed'
          ? `The IdP configurations could not be read: ${configs.message}`
          : 'Only a participant admin can check it against the IdP configurations.';
  if (provider) {
    return verdict(
      'ok',
      `${quote(issuer)} is the issuer of this console's sign-in provider ${quote(provider.name)}, whose users are in ${idpName(provider.identityProviderId)}. ${whyUnknown}`,
    );
  }
  if (nearProvider) {
    return verdict(
      'warning',
      `${quote(issuer)} differs from sign-in provider ${quote(nearProvider.name)}'s issuer ${quote(nearProvider.issuer)} only by a trailing slash; Canton compares issuers exactly.`,
      'Make the issuer in the console and IdP configurations exactly the one the tokens carry.',
    );
  }
  if (providers !== undefined && providers.length > 0) {
    return verdict(
      'warning',
      `${quote(issuer)} is not the issuer of any of this console's sign-in providers. ${whyUnknown}`,
      'Check that the participant has an active IdP configuration with this exact issuer; otherwise it answers 401.',
    );
  }
  return verdict('unknown', `Issuer ${quote(issuer)}. ${whyUnknown}`);
}

// ── audience and scope ─────────────────────────────────────────────────────────

function tokenFormVerdict(
  claims: TokenClaims,
  matchedConfig: IdentityProviderInfo | undefined,
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'token-form',
    title: 'Audience or scope',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const participantAudiences = claims.audiences.filter((a) =>
    a.startsWith(PARTICIPANT_AUDIENCE_PREFIX),
  );
  const hasScope = claims.scopes.includes(LEDGER_API_SCOPE);
  if (participantAudiences.length === 1) {
    return verdict(
      'ok',
      'Audience-based: aud holds one participant audience, the form Canton recommends.',
    );
  }
  if (participantAudiences.length > 1) {
    return verdict(
      'problem',
      `aud holds ${String(participantAudiences.length)} participant audiences; Canton wants exactly one, so it does not read this as an audience-based token${hasScope ? ', and a scope-based token may have at most one aud' : ''} (401).`,
      'Request a token for this participant only: one https://daml.com/jwt/aud/participant/<id> audience.',
    );
  }
  if (hasScope) {
    if (claims.audiences.length > 1) {
      return verdict(
        'problem',
        `Scope-based (daml_ledger_api), but aud holds ${String(claims.audiences.length)} values; a scope-based token may carry at most one (401).`,
        'Request a token with the participant audience https://daml.com/jwt/aud/participant/<id> instead of the scope.',
      );
    }
    return verdict(
      'warning',
      'Scope-based: scope holds daml_ledger_api. Canton 3.5 deprecates scope-based tokens and 3.7 removes them.',
      'Request the audience https://daml.com/jwt/aud/participant/<participant id> from the identity provider instead of the daml_ledger_api scope.',
    );
  }
  if (matchedConfig?.audience && claims.audiences.includes(matchedConfig.audience)) {
    return verdict(
      'ok',
      `No participant audience and no daml_ledger_api scope, but aud holds ${quote(matchedConfig.audience)}, the audience IdP configuration ${quote(matchedConfig.identityProviderId)} requires, and that is the form it checks.`,
    );
  }
  return verdict(
    'problem',
    `Neither form: no https://daml.com/jwt/aud/participant/… audience and no daml_ledger_api scope (aud: ${list(claims.audiences)}; scope: ${list(claims.scopes)}). Unless the participant's auth service sets a target-audience or target-scope this token carries, it is refused (401).`,
    'Request the audience https://daml.com/jwt/aud/participant/<participant id> from the identity provider.',
  );
}

function participantAudienceVerdict(
  claims: TokenClaims,
  participantId: string | undefined,
  identityProviderId: string,
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'participant-audience',
    title: 'Participant audience',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const expected =
    participantId === undefined ? undefined : `${PARTICIPANT_AUDIENCE_PREFIX}${participantId}`;
  const expectedText = expected ?? `${PARTICIPANT_AUDIENCE_PREFIX}<participant id>`;
  const participantAudiences = claims.audiences.filter((a) =>
    a.startsWith(PARTICIPANT_AUDIENCE_PREFIX),
  );
  let named: string | undefined;
  if (participantAudiences.length === 1) {
    named = participantAudiences[0]?.slice(PARTICIPANT_AUDIENCE_PREFIX.length);
    if (!named) {
      return verdict(
        'problem',
        'The participant audience names no participant id, so Canton does not read it as audience-based (401).',
        `Request the audience ${quote(expectedText)}.`,
      );
    }
  } else if (participantAudiences.length > 1) {
    const others = participantAudiences.filter((a) => a !== expected);
    return verdict(
      'problem',
      `Several participant audiences (${list(participantAudiences)}); the token is not meant for one participant${expected && others.length < participantAudiences.length ? ', though one of them is this one' : ''}.`,
      `Request a token whose only participant audience is ${quote(expectedText)}.`,
    );
  } else if (claims.scopes.includes(LEDGER_API_SCOPE) && claims.audiences.length === 1) {
    // A scope-based token's single aud is taken as the participant id (§4.3).
    if (identityProviderId === '') named = claims.audiences[0];
  }
  if (named === undefined) {
    return verdict(
      'ok',
      'The token names no participant, so any participant that trusts its signer accepts it.',
    );
  }
  if (participantId === undefined) {
    return verdict(
      'unknown',
      `The token is for participant ${quote(named)}; this participant's id could not be read to compare.`,
    );
  }
  if (named !== participantId) {
    return verdict(
      'problem',
      `The token is for participant ${quote(named)}, but this is ${quote(participantId)}: the participant answers 403.`,
      `Request the audience ${quote(expectedText)} for this participant.`,
    );
  }
  return verdict('ok', `The token is for this participant (${quote(participantId)}).`);
}

function idpAudienceVerdict(claims: TokenClaims, config: IdentityProviderInfo): Verdict {
  const has = claims.audiences.includes(config.audience);
  return has
    ? {
        id: 'idp-audience',
        title: 'IdP audience',
        status: 'ok',
        finding: `aud holds ${quote(config.audience)}, which IdP configuration ${quote(config.identityProviderId)} requires.`,
      }
    : {
        id: 'idp-audience',
        title: 'IdP audience',
        status: 'problem',
        finding: `IdP configuration ${quote(config.identityProviderId)} requires the audience ${quote(config.audience)}, which aud does not hold (401).`,
        fix: `Request the audience ${quote(config.audience)} from the identity provider, or clear the audience of IdP configuration ${quote(config.identityProviderId)}.`,
      };
}

/** For the sign-in provider that issued the token, when this console asks it for an audience. */
function providerAudienceVerdicts(
  claims: TokenClaims,
  providers: readonly SignInProviderInfo[] | undefined,
): Verdict[] {
  const provider = providers?.find((p) => p.issuer === claims.issuer);
  if (provider?.audience === undefined) return [];
  const title = 'Sign-in provider audience';
  return claims.audiences.includes(provider.audience)
    ? [
        {
          id: 'provider-audience',
          title,
          status: 'ok',
          finding: `aud holds ${quote(provider.audience)}, the audience this console asks ${quote(provider.name)} for.`,
        },
      ]
    : [
        {
          id: 'provider-audience',
          title,
          status: 'warning',
          finding: `This console asks ${quote(provider.name)} for the audience ${quote(provider.audience)}, which aud does not hold: the token was issued for another client or API.`,
          fix: `Sign in through this console's ${quote(provider.name)} provider, or request the audience ${quote(provider.audience)}.`,
        },
      ];
}

// ── times ──────────────────────────────────────────────────────────────────────

function expiryVerdict(payload: Record<string, unknown>, now: number, skew: number): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'expiry',
    title: 'Expiry (exp)',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const exp = payload.exp;
  if (exp === undefined) {
    return verdict(
      'warning',
      'No exp: the token never expires. A participant with max-token-lifetime refuses it, and anyone who copies it keeps access.',
      'Have the identity provider issue tokens with an expiry (minutes to hours).',
    );
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    return verdict(
      'problem',
      'exp is not a number of seconds, so the verifier refuses the token (401).',
      'Use a token whose exp is seconds since 1970 (a JSON number).',
    );
  }
  const left = exp - now / 1000;
  const at = instant(exp);
  if (left <= -skew) {
    return verdict(
      'problem',
      `Expired ${duration(-left)} ago (${at}): the participant answers 401.`,
      'Get a fresh token from your identity provider (sign in again).',
    );
  }
  if (left <= skew) {
    return verdict(
      'warning',
      `Expires ${at}, within ${String(skew)} s of this browser's clock: the participant may already refuse it (401).`,
      'Get a fresh token from your identity provider (sign in again).',
    );
  }
  if (left <= EXPIRES_SOON_SECONDS) {
    return verdict(
      'warning',
      `Expires in ${duration(left)} (${at}).`,
      'Get a fresh token before long-running work (sign in again).',
    );
  }
  return verdict('ok', `Valid for ${duration(left)} more (until ${at}).`);
}

function notBeforeVerdict(payload: Record<string, unknown>, now: number, skew: number): Verdict {
  return futureTimeVerdict(payload.nbf, now, skew, {
    id: 'not-before',
    title: 'Not before (nbf)',
    absent: 'No nbf: usable from the moment it was issued.',
    early: 'is not valid before',
  });
}

function issuedAtVerdict(payload: Record<string, unknown>, now: number, skew: number): Verdict {
  return futureTimeVerdict(payload.iat, now, skew, {
    id: 'issued-at',
    title: 'Issued at (iat)',
    absent: 'No iat (Canton does not need one).',
    early: 'claims to be issued at',
  });
}

function futureTimeVerdict(
  value: unknown,
  now: number,
  skew: number,
  words: { id: VerdictId; title: string; absent: string; early: string },
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: words.id,
    title: words.title,
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  if (value === undefined) return verdict('ok', words.absent);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return verdict(
      'problem',
      'Not a number of seconds, so the verifier refuses the token (401).',
      'Use a token whose time claims are seconds since 1970 (JSON numbers).',
    );
  }
  const ahead = value - now / 1000;
  if (ahead > skew) {
    return verdict(
      'problem',
      `The token ${words.early} ${instant(value)}, ${duration(ahead)} ahead of this browser's clock: the participant answers 401 until then.`,
      "Correct the clock of the identity provider's server or of this computer (NTP), or wait until then.",
    );
  }
  if (ahead > 0) {
    return verdict(
      'warning',
      `The token ${words.early} ${instant(value)}, ${duration(ahead)} ahead of this browser's clock: a participant whose clock is behind refuses it for now.`,
      'If the participant refuses it, wait a minute or synchronise the clocks (NTP).',
    );
  }
  return verdict('ok', `${instant(value)}, in the past.`);
}

// ── user ───────────────────────────────────────────────────────────────────────

function subjectVerdict(payload: Record<string, unknown>): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'subject',
    title: 'User id (sub)',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  const sub = payload.sub;
  if (sub === undefined) {
    return verdict(
      'problem',
      'No sub: Canton takes the user id from sub, so it cannot tell whose rights apply.',
      'Have the identity provider put the Canton user id in sub.',
    );
  }
  if (typeof sub !== 'string') {
    return verdict(
      'problem',
      'sub is not a string.',
      'Have the identity provider put the Canton user id in sub.',
    );
  }
  const problem = idStringProblem(USER_ID_STRING, sub);
  const rule = `1 to ${String(USER_ID_STRING.maxLength)} ASCII letters, digits and @^$.!\`-#+'~_|:()`;
  if (problem === undefined) return verdict('ok', `User ${quote(sub)}: a valid Canton user id.`);
  const why =
    problem.kind === 'empty'
      ? 'sub is empty'
      : problem.kind === 'too-long'
        ? `sub is ${String(problem.length)} characters long`
        : `sub holds ${describeChar(problem.char)}`;
  return verdict(
    'problem',
    `${why}; a Canton user id is ${rule}. The participant answers 400 INVALID_TOKEN ("missing a user-id").`,
    "Map the identity provider's subject to a valid user id (a claim mapper), and create that user on the participant.",
  );
}

function userVerdict(
  claims: TokenClaims,
  hasValidSubject: boolean,
  idp: { identityProviderId: string; certain: boolean },
  context: DoctorContext,
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'user',
    title: 'User record',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  if (!hasValidSubject || claims.subject === undefined) {
    return verdict('unknown', 'Without a valid sub there is no user to look up.');
  }
  const userId = quote(claims.subject);
  const where = `${idpName(idp.identityProviderId)}${idp.certain ? '' : ' (assumed: the IdP configurations could not be read)'}`;
  const lookup = context.user;
  switch (lookup?.status) {
    case undefined:
      return verdict('unknown', 'The user was not looked up.');
    case 'signed-out':
      return verdict(
        'unknown',
        `Sign in to look up user ${userId}; lookups use your current sign-in, never the pasted token.`,
      );
    case 'failed':
      return verdict('unknown', `User ${userId} could not be looked up: ${lookup.message}`);
    case 'not-found':
      return verdict(
        'problem',
        `There is no user ${userId} in ${where}: the participant answers 403 to every request with this token.`,
        `Create user ${userId} in ${idpName(idp.identityProviderId)} (Users → New user), or fix the token's sub.`,
      );
    case 'forbidden':
      return context.callerIsParticipantAdmin && idp.certain
        ? verdict(
            'problem',
            `User ${userId} exists in another IdP than ${where}, the one the token's issuer selects: the participant answers 403.`,
            `Move user ${userId} to ${idpName(idp.identityProviderId)} (its page: Identity provider), or use a token from its own IdP's issuer.`,
          )
        : verdict(
            'unknown',
            `Your current sign-in may not read user ${userId} in ${where}; a participant admin or that IdP's admin can.`,
          );
    case 'found': {
      const user = lookup.value;
      if (user.identityProviderId !== idp.identityProviderId) {
        return verdict(
          'problem',
          `User ${userId} belongs to ${idpName(user.identityProviderId)}, but the token's issuer selects ${where}: the participant answers 403.`,
          `Move the user to ${idpName(idp.identityProviderId)}, or use a token from its own IdP's issuer.`,
        );
      }
      if (user.isDeactivated) {
        return verdict(
          'problem',
          `User ${userId} in ${where} is deactivated: the participant answers 403 to every request with this token.`,
          `Reactivate user ${userId} (its page: Edit, Active), or use another user's token.`,
        );
      }
      return verdict('ok', `User ${userId} exists in ${where} and is active.`);
    }
  }
}

function rightsVerdict(
  user: Lookup<UserRecord> | undefined,
  rights: Lookup<readonly UserRight[]> | undefined,
): Verdict {
  const verdict = (status: VerdictStatus, finding: string, fix?: string): Verdict => ({
    id: 'rights',
    title: 'Rights',
    status,
    finding,
    ...(fix ? { fix } : {}),
  });
  if (user?.status !== 'found') {
    return verdict('unknown', 'Known once the user is found.');
  }
  switch (rights?.status) {
    case undefined:
    case 'signed-out':
      return verdict('unknown', 'The rights were not looked up.');
    case 'forbidden':
    case 'not-found':
      return verdict(
        'unknown',
        "Your current sign-in may not read this user's rights (the JSON API lists rights in the default IdP only, for a participant admin).",
      );
    case 'failed':
      return verdict('unknown', `The rights could not be read: ${rights.message}`);
    case 'found':
      break;
  }
  const summary = summarizeRights(rights.value);
  if (summary.length === 0) {
    return verdict(
      'warning',
      'No rights: the participant accepts the token for public reads only (version, packages), so the console is read-only and shows no party data.',
      'Grant the user the rights it needs (its page: Rights), e.g. CanReadAs or CanActAs for its parties.',
    );
  }
  return verdict('ok', `${sentence(summary)}.`);
}

/** The rights in short: admin kinds first, then party rights by count. */
export function summarizeRights(rights: readonly UserRight[]): string[] {
  const kinds = new Set(rights.map((right) => right.kind));
  const parties = (kind: UserRight['kind']) =>
    new Set(
      rights.flatMap((right) => (right.kind === kind && 'party' in right ? [right.party] : [])),
    ).size;
  const summary: string[] = [];
  if (kinds.has('ParticipantAdmin')) summary.push('participant admin');
  if (kinds.has('IdentityProviderAdmin')) summary.push('IdP admin');
  if (kinds.has('CanActAsAnyParty')) summary.push('acts as any party');
  if (kinds.has('CanReadAsAnyParty')) summary.push('reads as any party');
  if (kinds.has('CanExecuteAsAnyParty')) summary.push('executes as any party');
  const counted = [
    ['CanActAs', 'acts as'],
    ['CanReadAs', 'reads as'],
    ['CanExecuteAs', 'executes as'],
  ] as const;
  for (const [kind, words] of counted) {
    const count = parties(kind);
    if (count > 0) summary.push(`${words} ${String(count)} ${count === 1 ? 'party' : 'parties'}`);
  }
  return summary;
}

// ── wording ────────────────────────────────────────────────────────────────────

function jsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value = decodeJwtSegment(segment);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A claim value for a sentence: quoted, hidden and bidi characters shown (`⟨U+202E⟩`), long values
 * cut, and isolated, so a value cannot reorder or fake the rest of its sentence.
 */
function quote(value: string): string {
  const visible = revealControls(value);
  const cut =
    visible.length > MAX_SHOWN_CHARS
      ? `${visible.slice(0, MAX_SHOWN_CHARS)}… (${String(visible.length)} characters)`
      : visible;
  // Cut first, then isolate: the isolate's closing character must never be cut off.
  return `"${isolateIdentifier(cut)}"`;
}

function list(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.map(quote).join(', ');
}

function idpName(identityProviderId: string): string {
  return identityProviderId === '' ? 'the default IdP' : `IdP ${quote(identityProviderId)}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function sentence(parts: readonly string[]): string {
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code > 0x20 && code < 0x7f ? `${quote(char)} (${hex})` : hex;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
}

function instant(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime())
    ? `${String(seconds)} s`
    : date.toISOString().replace('.000Z', 'Z');
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 90) return `${String(s)} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 90) return `${String(minutes)} min`;
  const hours = Math.round(s / 3600);
  if (hours < 48) return `${String(hours)} h`;
  return `${String(Math.round(s / 86_400))} days`;
}
