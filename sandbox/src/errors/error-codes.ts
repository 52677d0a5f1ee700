import type { CategoryName } from './error-categories';

type CodeSpec = {
  category: CategoryName;
  /** Whether the error type defines a definite answer; it then shows up as `definite_answer` in context. */
  definiteAnswer?: boolean;
};

/**
 * Every error code the sandbox can raise, with its category. The category decides the gRPC code,
 * the HTTP status and the retry hint, so they can never disagree (style guide §B9).
 */
const CODES = {
  // Request validation (RequestValidationErrors): all define definite_answer=false.
  INVALID_ARGUMENT: { category: 'InvalidIndependentOfSystemState', definiteAnswer: false },
  MISSING_FIELD: { category: 'InvalidIndependentOfSystemState', definiteAnswer: false },
  INVALID_FIELD: { category: 'InvalidIndependentOfSystemState', definiteAnswer: false },
  INVALID_TOKEN: { category: 'InvalidIndependentOfSystemState', definiteAnswer: false },
  UNKNOWN_RESOURCE: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  // User management.
  USER_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  USER_ALREADY_EXISTS: { category: 'InvalidGivenCurrentSystemStateResourceExists' },
  TOO_MANY_USER_RIGHTS: { category: 'InvalidGivenCurrentSystemStateOther' },
  INVALID_USER_UPDATE_REQUEST: { category: 'InvalidIndependentOfSystemState' },
  CONCURRENT_USER_UPDATE_DETECTED: { category: 'ContentionOnSharedResources' },
  MAX_USER_ANNOTATIONS_SIZE_EXCEEDED: { category: 'InvalidGivenCurrentSystemStateOther' },
  // Identity provider configs.
  IDP_CONFIG_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  IDP_CONFIG_ALREADY_EXISTS: { category: 'InvalidGivenCurrentSystemStateResourceExists' },
  IDP_CONFIG_ISSUER_ALREADY_EXISTS: { category: 'InvalidGivenCurrentSystemStateResourceExists' },
  TOO_MANY_IDENTITY_PROVIDER_CONFIGS: { category: 'InvalidGivenCurrentSystemStateOther' },
  INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST: { category: 'InvalidIndependentOfSystemState' },
  // Party management.
  PARTY_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  INVALID_PARTY_DETAILS_UPDATE_REQUEST: { category: 'InvalidIndependentOfSystemState' },
  CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED: { category: 'ContentionOnSharedResources' },
  MAX_PARTY_DETAILS_ANNOTATIONS_SIZE_EXCEEDED: { category: 'InvalidGivenCurrentSystemStateOther' },
  // Packages and DARs (PackageServiceErrors). ALLOWED_LANGUAGE_VERSIONS is the command-execution
  // code, which the upload path reuses.
  INVALID_DAR: { category: 'InvalidIndependentOfSystemState' },
  INVALID_ZIP_ENTRY: { category: 'InvalidIndependentOfSystemState' },
  DAR_PARSE_ERROR: { category: 'InvalidIndependentOfSystemState' },
  DAR_VALIDATION_ERROR: { category: 'InvalidIndependentOfSystemState' },
  ALLOWED_LANGUAGE_VERSIONS: { category: 'InvalidIndependentOfSystemState' },
  // A request-validation "not found" error, so it carries definite_answer=false like its siblings.
  PACKAGE_NOT_FOUND: {
    category: 'InvalidGivenCurrentSystemStateResourceMissing',
    definiteAnswer: false,
  },
  PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER: {
    category: 'InvalidGivenCurrentSystemStateOther',
  },
  // Package vetting.
  UNRESOLVED_VETTING_REFERENCE: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  AMBIGUOUS_VETTING_REFERENCE: { category: 'InvalidGivenCurrentSystemStateOther' },
  TOPOLOGY_SERIAL_MISMATCH: { category: 'InvalidGivenCurrentSystemStateOther' },
  // Redacted on the wire: only the category survives (ledger-api-behaviour.md §1.4).
  UNAUTHENTICATED: { category: 'AuthInterceptorInvalidAuthenticationCredentials' },
  PERMISSION_DENIED: { category: 'InsufficientPermission' },
  INTERNAL_ERROR: { category: 'SystemInternalAssumptionViolated' },
  // Built inside the JSON layer for unexpected exceptions; not redacted there.
  LEDGER_API_INTERNAL_ERROR: { category: 'SystemInternalAssumptionViolated' },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof CODES;

export const ERROR_CODES: Readonly<Record<ErrorCode, CodeSpec>> = CODES;
