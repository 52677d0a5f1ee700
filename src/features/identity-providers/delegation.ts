import { z } from 'zod';
import { userIdProblem } from '@/lib/forms/user-id-rules';
import type { IdentityProviderConfig } from '@/api/identity-providers';
import type { CreateUserRequest } from '@/api/users';

/** As the console server allows it: longer issuers are refused there anyway. */
export const MAX_ISSUER_URL_LENGTH = 2048;

/** The audience prefix of Canton's audience-based tokens (ledger-api-behaviour.md §4.3). */
const PARTICIPANT_AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

/**
 * Why the console server would refuse to read `value`'s discovery document, or undefined: an
 * absolute https URL (http only on loopback), no credentials, query or fragment. Checked here so a
 * typo gets a field message before anything is sent.
 */
export function issuerUrlProblem(value: string): string | undefined {
  if (value.trim() === '') return 'Required';
  if (value.length > MAX_ISSUER_URL_LENGTH) {
    return `At most ${String(MAX_ISSUER_URL_LENGTH)} characters`;
  }
  if (value !== value.trim()) return 'Remove the spaces around it: the issuer must match exactly';
  if (!URL.canParse(value))
    return 'Must be an absolute URL, e.g. https://login.example.com/realms/x';
  const url = new URL(value);
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return 'Must be https (http only on loopback: 127.0.0.1, ::1, localhost)';
  }
  if (url.username || url.password) return 'Must not contain a user name or password';
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    return 'An issuer has no query or fragment';
  }
  return undefined;
}

function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (
    bare === 'localhost' ||
    bare.endsWith('.localhost') ||
    bare === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(bare)
  );
}

export const issuerLookupSchema = z.object({
  issuer: z.string().superRefine((value, context) => {
    const problem = issuerUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
});
export type IssuerLookupValues = z.infer<typeof issuerLookupSchema>;

export const firstAdminSchema = z.object({
  // Not trimmed: the id must be exactly the subject the provider puts in `sub`.
  userId: z.string().superRefine((value, context) => {
    const problem = userIdProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
});
export type FirstAdminValues = z.infer<typeof firstAdminSchema>;

/** The first admin: a user of the new IdP with IdentityProviderAdmin, nothing else. */
export function firstAdminRequest(
  identityProviderId: string,
  values: FirstAdminValues,
): CreateUserRequest {
  return {
    user: {
      id: values.userId,
      primaryParty: '',
      isDeactivated: false,
      identityProviderId,
    },
    rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }],
  };
}

export type HandOff = {
  participantId: string;
  config: IdentityProviderConfig;
  adminUserId: string;
};

/** What the participant checks of a token's `aud` for this IdP, in words. */
export function expectedAudience(config: IdentityProviderConfig, participantId: string): string {
  const audience = config.audience ?? '';
  if (audience !== '') return audience;
  return `${PARTICIPANT_AUDIENCE_PREFIX}${participantId}`;
}

/** A `--sign-in-config` provider id: lowercase letters, digits and inner hyphens. */
export function signInProviderId(identityProviderId: string): string {
  const id = identityProviderId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return id === '' ? 'idp' : id;
}

/** The console's sign-in configuration for this provider (docs/sign-in.md, "Configuration"). */
export function signInConfigSnippet({ participantId, config }: HandOff): string {
  const provider = {
    id: signInProviderId(config.identityProviderId),
    name: config.identityProviderId,
    issuer: config.issuer,
    clientId: 'ledger-console',
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    audience: expectedAudience(config, participantId),
    identityProviderId: config.identityProviderId,
  };
  return JSON.stringify({ providers: [provider] }, null, 2);
}

/** The hand-off sheet as plain text, for a message to the new IdP admin and the console's operator. */
export function handOffText(handOff: HandOff): string {
  const { participantId, config, adminUserId } = handOff;
  const configured = (config.audience ?? '') !== '';
  return [
    `Identity provider delegated on participant ${participantId}`,
    '',
    `Participant id:        ${participantId}`,
    `Identity provider id:  ${config.identityProviderId}`,
    `Issuer (iss):          ${config.issuer}`,
    `JWKS URL:              ${config.jwksUrl}`,
    `Audience expected:     ${expectedAudience(config, participantId)}${configured ? ' (configured on the IdP)' : " (none configured: Canton's audience-based token for this participant; a scope-based token with daml_ledger_api is also accepted, but deprecated)"}`,
    `Status:                ${config.isDeactivated ? 'deactivated: no token is accepted until it is activated' : 'active'}`,
    `First IdP admin:       ${adminUserId} (right: IdentityProviderAdmin)`,
    '',
    `The first admin signs in with a token from ${config.issuer} whose sub is ${adminUserId}.`,
    '',
    "The console's sign-in configuration for this provider (--sign-in-config file; the clientId is",
    "the console's public client registered at the provider, with the console's redirect URIs):",
    signInConfigSnippet(handOff),
    '',
    `What ${adminUserId} can then do, for ${config.identityProviderId} only:`,
    '- create, update, deactivate and delete its users (the user id is the person’s sub at the provider);',
    '- grant and revoke CanActAs, CanReadAs, CanExecuteAs and IdentityProviderAdmin, for parties of this IdP;',
    '- allocate parties into this IdP, list them and update their details.',
    'It cannot: grant ParticipantAdmin or any *AnyParty right, touch users of other IdPs, read or',
    'change identity provider configurations (its own included), move users or parties between IdPs,',
    'or upload packages.',
  ].join('\n');
}
