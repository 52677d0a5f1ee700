import { firstDisallowedChar, LEDGER_STRING } from '@ledger-console/participant/identifiers';
import { z } from 'zod';
import type {
  IdentityProviderConfig,
  UpdateIdentityProviderConfigRequest,
} from '@/api/identity-providers';
import type { ApiError } from '@/lib/errors/api-error';

/** LedgerString, as the participant checks IdP ids (ledger-api-behaviour.md §3.2). */
export const MAX_IDENTITY_PROVIDER_ID_LENGTH = LEDGER_STRING.maxLength;
export const IDENTITY_PROVIDER_ID_SYMBOLS = '. _ : - # / and space';

// The participant takes any URL Java's `new URI(s).toURL()` accepts: absolute, any scheme.
const isAbsoluteUrl = (value: string) => URL.canParse(value);

/**
 * A warning (not an error: the participant accepts it) for an issuer or JWKS URL over plain http
 * to another machine: the keys that decide who may act on the ledger would travel unprotected.
 */
export function insecureUrlWarning(value: string, what: 'issuer' | 'JWKS URL'): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1' || host.startsWith('127.')) return undefined;
  return what === 'JWKS URL'
    ? 'Plain http: anyone on the way can swap the keys the participant trusts. Use https (http is fine on loopback only).'
    : 'Plain http: the provider’s discovery and keys are then usually fetched unprotected too. Use an https issuer (http is fine on loopback only).';
}

export const identityProviderSettingsSchema = z.object({
  // Not validated as a URL by the participant: tokens' `iss` must only match it exactly.
  issuer: z.string().trim().min(1, 'Required'),
  jwksUrl: z
    .string()
    .trim()
    // Stop at the first problem: an empty field is "Required", not also "not a URL".
    .min(1, { error: 'Required', abort: true })
    .refine(isAbsoluteUrl, 'Must be an absolute URL, e.g. https://idp.example.com/jwks.json'),
  audience: z.string().trim(),
});
export type IdentityProviderSettingsValues = z.infer<typeof identityProviderSettingsSchema>;

export const createIdentityProviderSchema = identityProviderSettingsSchema.extend({
  // Not trimmed: spaces are legal in the id, and the id must be exactly what was typed.
  identityProviderId: z
    .string()
    .min(1, { error: 'Required', abort: true })
    .max(
      MAX_IDENTITY_PROVIDER_ID_LENGTH,
      `At most ${String(MAX_IDENTITY_PROVIDER_ID_LENGTH)} characters`,
    )
    .refine(
      (id) => firstDisallowedChar(LEDGER_STRING, id) === undefined,
      `Only letters, digits and ${IDENTITY_PROVIDER_ID_SYMBOLS}`,
    ),
  isDeactivated: z.boolean(),
});
export type CreateIdentityProviderValues = z.infer<typeof createIdentityProviderSchema>;

export const emptyCreateIdentityProviderValues: CreateIdentityProviderValues = {
  identityProviderId: '',
  issuer: '',
  jwksUrl: '',
  audience: '',
  isDeactivated: false,
};

export function toIdentityProviderConfig(
  values: CreateIdentityProviderValues,
): IdentityProviderConfig {
  return {
    identityProviderId: values.identityProviderId,
    issuer: values.issuer,
    jwksUrl: values.jwksUrl,
    audience: values.audience,
    isDeactivated: values.isDeactivated,
  };
}

export function toIdentityProviderSettingsValues(
  config: IdentityProviderConfig,
): IdentityProviderSettingsValues {
  return { issuer: config.issuer, jwksUrl: config.jwksUrl, audience: config.audience ?? '' };
}

/** The update mask's path for each settings field (snake case, as the API names them). */
const UPDATE_PATHS = {
  issuer: 'issuer',
  jwksUrl: 'jwks_url',
  audience: 'audience',
} as const satisfies Record<keyof IdentityProviderSettingsValues, string>;

const EMPTY_UNKNOWN_FIELDS = { fields: {} };

/**
 * An update that changes exactly the settings that differ from `current`, or undefined when none
 * does (the participant refuses an empty mask). Fields left out of the mask are sent as `''`, as
 * the API allows for issuer and jwks_url, so nothing unchanged is ever written back.
 */
export function toUpdateIdentityProviderRequest(
  current: IdentityProviderConfig,
  values: IdentityProviderSettingsValues,
): UpdateIdentityProviderConfigRequest | undefined {
  const currentValues = toIdentityProviderSettingsValues(current);
  const changed = (Object.keys(UPDATE_PATHS) as (keyof IdentityProviderSettingsValues)[]).filter(
    (field) => values[field] !== currentValues[field],
  );
  if (changed.length === 0) return undefined;
  const valueOf = (field: keyof IdentityProviderSettingsValues) =>
    changed.includes(field) ? values[field] : '';
  return {
    identityProviderConfig: {
      identityProviderId: current.identityProviderId,
      isDeactivated: current.isDeactivated ?? false,
      issuer: valueOf('issuer'),
      jwksUrl: valueOf('jwksUrl'),
      audience: valueOf('audience'),
    },
    updateMask: {
      paths: changed.map((field) => UPDATE_PATHS[field]),
      unknownFields: EMPTY_UNKNOWN_FIELDS,
    },
  };
}

/** Activates or deactivates, and changes nothing else. */
export function toStatusUpdateRequest(
  current: IdentityProviderConfig,
  isDeactivated: boolean,
): UpdateIdentityProviderConfigRequest {
  return {
    identityProviderConfig: {
      identityProviderId: current.identityProviderId,
      isDeactivated,
      issuer: '',
      jwksUrl: '',
      audience: '',
    },
    updateMask: { paths: ['is_deactivated'], unknownFields: EMPTY_UNKNOWN_FIELDS },
  };
}

export type IdentityProviderField = keyof CreateIdentityProviderValues;

const FIELDS_BY_API_NAME: Record<string, IdentityProviderField> = {
  identity_provider_id: 'identityProviderId',
  issuer: 'issuer',
  jwks_url: 'jwksUrl',
  audience: 'audience',
};

const FIELDS_BY_CODE: Record<string, IdentityProviderField> = {
  IDP_CONFIG_ALREADY_EXISTS: 'identityProviderId',
  IDP_CONFIG_ISSUER_ALREADY_EXISTS: 'issuer',
};

/**
 * The form field a failed create or update concerns: by code for the conflicts, and for
 * INVALID_FIELD / MISSING_FIELD by the field the error names (its `field_name` context, else the
 * cause, "…Invalid field jwks_url: …"). Undefined when no field of `fields` is concerned.
 */
export function identityProviderErrorField<F extends IdentityProviderField>(
  error: ApiError,
  fields: readonly F[],
): F | undefined {
  const byCode = FIELDS_BY_CODE[error.code];
  let field: IdentityProviderField | undefined = byCode;
  if (!field && (error.code === 'INVALID_FIELD' || error.code === 'MISSING_FIELD')) {
    const apiName =
      error.body.context?.field_name ??
      /(?:Invalid field|mandatory field:) ([a-z_]+)/.exec(error.body.cause)?.[1];
    field = apiName === undefined ? undefined : FIELDS_BY_API_NAME[apiName];
  }
  return field !== undefined && (fields as readonly string[]).includes(field)
    ? (field as F)
    : undefined;
}
