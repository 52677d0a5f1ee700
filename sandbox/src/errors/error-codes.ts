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
  // Party allocation in the sync service (SyncServiceError, SyncServiceInjectionError).
  PARTY_ALLOCATION_CANNOT_DETERMINE_SYNCHRONIZER: {
    category: 'InvalidGivenCurrentSystemStateOther',
  },
  // A TransactionError, which always carries definite_answer (false).
  NOT_CONNECTED_TO_SYNCHRONIZER: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
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
  PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER: {
    category: 'InvalidGivenCurrentSystemStateOther',
  },
  // Package vetting.
  UNRESOLVED_VETTING_REFERENCE: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  AMBIGUOUS_VETTING_REFERENCE: { category: 'InvalidGivenCurrentSystemStateOther' },
  TOPOLOGY_SERIAL_MISMATCH: { category: 'InvalidGivenCurrentSystemStateOther' },
  // A vetting change that leaves a vetted package without a dependency (ParticipantTopologyManager).
  TOPOLOGY_DEPENDENCIES_NOT_VETTED: { category: 'InvalidGivenCurrentSystemStateOther' },
  // The topology manager's refusals of an external party's onboarding (TopologyManagerError,
  // alarms). The sync service passes on only their cause and gRPC code (origin 'status').
  TOPOLOGY_INVALID_TX_SIGNATURE: { category: 'SecurityAlert' },
  TOPOLOGY_UNAUTHORIZED_TRANSACTION: { category: 'SecurityAlert' },
  // Upgrade checks before vetting (ParticipantTopologyManagerError), on upload, validate and
  // vetting updates alike.
  NOT_VALID_UPGRADE_PACKAGE: { category: 'InvalidIndependentOfSystemState' },
  KNOWN_PACKAGE_VERSION: { category: 'InvalidIndependentOfSystemState' },
  // Commands: JSON-layer template resolution (JsCommandService) and submission validation.
  TEMPLATES_OR_INTERFACES_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  JSON_API_PACKAGE_SELECTION_FAILED: { category: 'InvalidGivenCurrentSystemStateOther' },
  NEGATIVE_OFFSET: { category: 'InvalidIndependentOfSystemState', definiteAnswer: false },
  NON_POSITIVE_OFFSET: { category: 'InvalidIndependentOfSystemState', definiteAnswer: false },
  OFFSET_AFTER_LEDGER_END: {
    category: 'InvalidGivenCurrentSystemStateSeekAfterEnd',
    definiteAnswer: false,
  },
  // Routing and topology: submitters or informees this participant cannot serve.
  NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT: {
    category: 'InvalidGivenCurrentSystemStateResourceMissing',
  },
  // TransactionRoutingErrors, whose definite answer is always false.
  UNKNOWN_INFORMEES: {
    category: 'InvalidGivenCurrentSystemStateResourceMissing',
    definiteAnswer: false,
  },
  INFORMEES_NOT_ACTIVE: { category: 'InvalidGivenCurrentSystemStateOther', definiteAnswer: false },
  // Routing across several synchronizers (TransactionRoutingError): TransactionErrors, so each
  // carries definite_answer (false).
  SUBMITTERS_NOT_ACTIVE: { category: 'InvalidGivenCurrentSystemStateOther', definiteAnswer: false },
  NO_COMMON_SYNCHRONIZER: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  INVALID_PRESCRIBED_SYNCHRONIZER_ID: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  UNKNOWN_CONTRACT_SYNCHRONIZERS: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  SUBMITTER_ALWAYS_STAKEHOLDER: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  AUTOMATIC_REASSIGNMENT_FOR_TRANSACTION_FAILED: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  NO_SYNCHRONIZER_FOR_SUBMISSION: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  // Package preferences (interactive submission): unknown names, then no common vetting.
  PACKAGE_NAMES_NOT_FOUND: {
    category: 'InvalidGivenCurrentSystemStateResourceMissing',
    definiteAnswer: false,
  },
  NO_PREFERRED_PACKAGES_FOUND: {
    category: 'InvalidGivenCurrentSystemStateOther',
    definiteAnswer: false,
  },
  // Command execution (CommandExecutionErrors / ConsistencyErrors).
  COMMAND_PREPROCESSING_FAILED: { category: 'InvalidIndependentOfSystemState' },
  DAML_AUTHORIZATION_ERROR: { category: 'InvalidIndependentOfSystemState' },
  TEMPLATE_PRECONDITION_VIOLATED: { category: 'InvalidIndependentOfSystemState' },
  CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE: { category: 'InvalidIndependentOfSystemState' },
  INTERPRETATION_USER_ERROR: { category: 'InvalidGivenCurrentSystemStateOther' },
  DAML_INTERPRETATION_ERROR: { category: 'InvalidGivenCurrentSystemStateOther' },
  CONTRACT_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  CONTRACT_NOT_ACTIVE: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  CONTRACT_KEY_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  DUPLICATE_CONTRACT_KEY: { category: 'InvalidGivenCurrentSystemStateResourceExists' },
  DUPLICATE_COMMAND: { category: 'InvalidGivenCurrentSystemStateResourceExists' },
  // Interactive submission (CommandExecutionErrors): DamlErrorWithDefiniteAnswer, so they carry
  // definite_answer=false.
  FAILED_TO_PREPARE_TRANSACTION: {
    category: 'InvalidIndependentOfSystemState',
    definiteAnswer: false,
  },
  FAILED_TO_EXECUTE_TRANSACTION: {
    category: 'InvalidIndependentOfSystemState',
    definiteAnswer: false,
  },
  // The confirming participant's rejections (LocalRejectError), answered for an externally
  // signed transaction; the model conformance one is an alarm, redacted like every security alert.
  LOCAL_VERDICT_INACTIVE_CONTRACTS: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND: { category: 'ContentionOnSharedResources' },
  LOCAL_VERDICT_PREPARATION_TIME_OUT_OF_BOUND: { category: 'ContentionOnSharedResources' },
  LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED: { category: 'ContentionOnSharedResources' },
  LOCAL_VERDICT_FAILED_MODEL_CONFORMANCE_CHECK: { category: 'SecurityAlert' },
  // The sandbox's own: a template of an uploaded package, which it cannot interpret.
  SANDBOX_CANNOT_INTERPRET: { category: 'InvalidGivenCurrentSystemStateOther' },
  // The sandbox's own: a real endpoint it does not emulate (answered 501, never redacted).
  SANDBOX_UNSUPPORTED_ENDPOINT: { category: 'InternalUnsupportedOperation' },
  // The sandbox's own: valid onboarding topology it does not emulate (answered 501).
  SANDBOX_UNSUPPORTED_TOPOLOGY: { category: 'InternalUnsupportedOperation' },
  // The sandbox's own control: no token can be minted in this auth mode or for this user.
  SANDBOX_CANNOT_MINT_TOKEN: { category: 'InvalidGivenCurrentSystemStateOther' },
  // Updates and events.
  UPDATE_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  CONTRACT_EVENTS_NOT_FOUND: { category: 'InvalidGivenCurrentSystemStateResourceMissing' },
  // The contract service's lookup (RequestValidationErrors.NotFound.ContractPayload).
  CONTRACT_PAYLOAD_NOT_FOUND: {
    category: 'InvalidGivenCurrentSystemStateResourceMissing',
    definiteAnswer: false,
  },
  INVALID_UPDATES_PAGE_TOKEN: { category: 'InvalidIndependentOfSystemState' },
  INVALID_ACTIVE_CONTRACTS_PAGE_TOKEN: { category: 'InvalidIndependentOfSystemState' },
  // The JSON layer's list limit; its status is forced to 413 whatever the category says.
  JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED: { category: 'ContentionOnSharedResources' },
  // A request body over the size limit (pekko's max-content-length answers 413 in text/plain; the
  // sandbox and the console say it in the API's own error shape, forced to 413).
  REQUEST_ENTITY_TOO_LARGE: { category: 'InvalidIndependentOfSystemState' },
  // Redacted on the wire: only the category survives (ledger-api-behaviour.md §1.4).
  UNAUTHENTICATED: { category: 'AuthInterceptorInvalidAuthenticationCredentials' },
  PERMISSION_DENIED: { category: 'InsufficientPermission' },
  INTERNAL_ERROR: { category: 'SystemInternalAssumptionViolated' },
  // Built inside the JSON layer for unexpected exceptions; not redacted there.
  LEDGER_API_INTERNAL_ERROR: { category: 'SystemInternalAssumptionViolated' },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof CODES;

export const ERROR_CODES: Readonly<Record<ErrorCode, CodeSpec>> = CODES;
