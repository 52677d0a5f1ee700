/**
 * Canton's error categories (ledger-api-behaviour.md §1.3): the number on the wire, the gRPC code
 * it maps to, the HTTP status the JSON API derives from that code (§1.2), the retry hint and
 * whether details are redacted before they leave the participant.
 */
export type ErrorCategory = {
  id: number;
  name: string;
  grpcCode: number;
  httpStatus: number;
  retryInfo: string | null;
  redacted: boolean;
};

const category = (
  id: number,
  name: string,
  grpcCode: number,
  httpStatus: number,
  retryInfo: string | null,
  redacted = false,
): ErrorCategory => ({ id, name, grpcCode, httpStatus, retryInfo, redacted });

export const CATEGORIES = {
  TransientServerFailure: category(1, 'TransientServerFailure', 14, 503, '1 second'),
  ContentionOnSharedResources: category(2, 'ContentionOnSharedResources', 10, 409, '1 second'),
  DeadlineExceededRequestStateUnknown: category(
    3,
    'DeadlineExceededRequestStateUnknown',
    4,
    504,
    '1 second',
  ),
  SystemInternalAssumptionViolated: category(
    4,
    'SystemInternalAssumptionViolated',
    13,
    500,
    null,
    true,
  ),
  SecurityAlert: category(5, 'SecurityAlert', 3, 400, null, true),
  AuthInterceptorInvalidAuthenticationCredentials: category(
    6,
    'AuthInterceptorInvalidAuthenticationCredentials',
    16,
    401,
    null,
    true,
  ),
  InsufficientPermission: category(7, 'InsufficientPermission', 7, 403, null, true),
  InvalidIndependentOfSystemState: category(8, 'InvalidIndependentOfSystemState', 3, 400, null),
  InvalidGivenCurrentSystemStateOther: category(
    9,
    'InvalidGivenCurrentSystemStateOther',
    9,
    400,
    null,
  ),
  InvalidGivenCurrentSystemStateResourceExists: category(
    10,
    'InvalidGivenCurrentSystemStateResourceExists',
    6,
    409,
    null,
  ),
  InvalidGivenCurrentSystemStateResourceMissing: category(
    11,
    'InvalidGivenCurrentSystemStateResourceMissing',
    5,
    404,
    null,
  ),
  InvalidGivenCurrentSystemStateSeekAfterEnd: category(
    12,
    'InvalidGivenCurrentSystemStateSeekAfterEnd',
    11,
    400,
    '1 second',
  ),
  InternalUnsupportedOperation: category(14, 'InternalUnsupportedOperation', 12, 501, null, true),
} as const;

export type CategoryName = keyof typeof CATEGORIES;

/** gRPC status codes by number, as a StatusRuntimeException's message starts with them. */
export const GRPC_CODE_NAMES: Readonly<Record<number, string>> = {
  0: 'OK',
  1: 'CANCELLED',
  2: 'UNKNOWN',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  10: 'ABORTED',
  11: 'OUT_OF_RANGE',
  12: 'UNIMPLEMENTED',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  15: 'DATA_LOSS',
  16: 'UNAUTHENTICATED',
};
