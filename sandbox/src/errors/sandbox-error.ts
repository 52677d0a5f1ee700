import type { JsCantonErrorBody } from '@ledger-console/edge/error-body';
import { CATEGORIES, GRPC_CODE_NAMES } from './error-categories';
import { ERROR_CODES, type ErrorCode } from './error-codes';

/** Where the real server would have produced the error; it changes how the body is rendered. */
type ErrorOrigin =
  /** Raised by the gRPC Ledger API and decoded back to JSON (the normal case, §1.6). */
  | 'grpc'
  /** Built inside the JSON layer itself (path/body mismatches, malformed path ids, §1.8). */
  | 'json'
  /**
   * Answered by the sandbox where no participant would answer: its `/__sandbox` controls and the
   * real endpoints it does not emulate. The JSON layer's shape, without a definite answer.
   */
  | 'sandbox'
  /**
   * A bare gRPC status without Canton's error details (the sync service rejects a party
   * allocation with only the cause and the code of the topology error): the JSON layer cannot
   * decode it and prints its description as the code (§1.8). The code here only fixes the
   * category, hence the status; the reason is the description.
   */
  | 'status';

export type SandboxErrorOptions = {
  context?: Record<string, string>;
  resources?: [string, string][];
  origin?: ErrorOrigin;
  /** JSON-layer token problems add `ledger_api_error` to an otherwise redacted body (§1.4). */
  tokenProblem?: boolean;
  /** A status the JSON layer forces whatever the category says (the list limit's 413, §10). */
  httpStatus?: number;
};

/**
 * The one way the sandbox fails a request with a JSON error body. The field is `reason`, not
 * `cause`, so it does not shadow `Error.cause`.
 */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  readonly context: Record<string, string>;
  readonly resources: [string, string][];
  readonly origin: ErrorOrigin;
  readonly tokenProblem: boolean;
  private readonly forcedStatus: number | undefined;

  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    options: SandboxErrorOptions = {},
  ) {
    super(`${code}: ${reason}`);
    this.context = options.context ?? {};
    this.resources = options.resources ?? [];
    this.origin = options.origin ?? 'grpc';
    this.tokenProblem = options.tokenProblem ?? false;
    this.forcedStatus = options.httpStatus;
  }

  get category() {
    return CATEGORIES[ERROR_CODES[this.code].category];
  }

  get httpStatus() {
    return this.forcedStatus ?? this.category.httpStatus;
  }
}

/**
 * Input that tapir could not decode before any server logic ran: a `400 text/plain` body
 * `Invalid value for: <source>[ (<detail>)]` (§1.9).
 */
export class DecodeFailure extends Error {
  override readonly name = 'DecodeFailure';
  constructor(
    readonly source: string,
    readonly detail?: string,
  ) {
    super(
      detail === undefined
        ? `Invalid value for: ${source}`
        : `Invalid value for: ${source} (${detail})`,
    );
  }
}

// Causes of the request-validation errors carry a fixed prefix in the real server.
export const invalidArgument = (reason: string, options?: SandboxErrorOptions) =>
  new SandboxError(
    'INVALID_ARGUMENT',
    `The submitted request has invalid arguments: ${reason}`,
    options,
  );

export const missingField = (fieldName: string) =>
  new SandboxError(
    'MISSING_FIELD',
    `The submitted command is missing a mandatory field: ${fieldName}`,
    { context: { field_name: fieldName } },
  );

export const invalidField = (fieldName: string, message: string) =>
  new SandboxError(
    'INVALID_FIELD',
    `The submitted command has a field with invalid value: Invalid field ${fieldName}: ${message}`,
    { context: { field_name: fieldName, message } },
  );

export const unauthenticated = (reason = 'The command is missing a (valid) JWT token') =>
  new SandboxError('UNAUTHENTICATED', reason);

export const permissionDenied = (reason: string, options?: SandboxErrorOptions) =>
  new SandboxError('PERMISSION_DENIED', reason, options);

export type ErrorRenderContext = {
  traceId: string;
  participant: string;
  /** Distinct correlation id (a submission id); otherwise the trace id stands in. */
  correlationId?: string;
  /** Properties of the server's logging context, e.g. `submissionId` of admin writes. */
  loggingContext?: Record<string, string>;
};

export function toErrorBody(error: SandboxError, ctx: ErrorRenderContext): JsCantonErrorBody {
  const category = error.category;
  const spec = ERROR_CODES[error.code];
  if (error.origin === 'status') {
    return {
      code: error.reason,
      cause: `${GRPC_CODE_NAMES[category.grpcCode] ?? String(category.grpcCode)}: ${error.reason}`,
      correlationId: null,
      traceId: null,
      context: {},
      resources: [],
      errorCategory: -1,
      grpcCodeValue: category.grpcCode,
      retryInfo: null,
      definiteAnswer: null,
    };
  }
  // The sandbox's own answers never pass the gRPC side, which is what redacts.
  if (
    category.redacted &&
    error.code !== 'LEDGER_API_INTERNAL_ERROR' &&
    error.origin !== 'sandbox'
  ) {
    // The gRPC side replaced the details with "An error occurred. Please contact the operator
    // and inquire about the request <corrId> with tid <traceId>"; the JSON layer decodes only that.
    return {
      code: 'NA',
      cause: 'A security-sensitive error has been received',
      correlationId: ctx.correlationId ?? ctx.traceId,
      traceId: ctx.traceId,
      context: error.tokenProblem ? { ledger_api_error: 'invalid token' } : {},
      resources: [],
      errorCategory: -1,
      grpcCodeValue: category.grpcCode,
      retryInfo: null,
      definiteAnswer: null,
    };
  }
  if (error.origin === 'json' || error.origin === 'sandbox') {
    return {
      code: error.code,
      cause: error.reason,
      correlationId: ctx.correlationId ?? ctx.traceId,
      traceId: ctx.traceId,
      context: error.context,
      resources: error.resources,
      errorCategory: category.id,
      grpcCodeValue: category.grpcCode,
      retryInfo: category.retryInfo,
      definiteAnswer: error.origin === 'json' ? (spec.definiteAnswer ?? null) : null,
    };
  }
  const context: Record<string, string> = {
    ...(ctx.loggingContext ?? {}),
    ...error.context,
    participant: ctx.participant,
    tid: ctx.traceId,
    category: String(category.id),
  };
  if (spec.definiteAnswer !== undefined) context.definite_answer = String(spec.definiteAnswer);
  return {
    code: error.code,
    cause: truncateCause(error.reason),
    // Decoded errors carry a correlation id only where it differs from the trace id (§1.5).
    correlationId: ctx.correlationId ?? null,
    traceId: ctx.traceId,
    context: sanitizeContext(context),
    resources: error.resources,
    errorCategory: category.id,
    grpcCodeValue: category.grpcCode,
    retryInfo: category.retryInfo,
    // DecodedCantonError never fills definiteAnswer; it is only in context (§1.7).
    definiteAnswer: null,
  };
}

/**
 * The error as a `google.rpc.Status` inside a response rather than as the response (an interface
 * view's `viewStatus`): the gRPC code and Canton's message `CODE(category,correlation): cause`,
 * `0` standing for no correlation id (ErrorCode.toMsg). The sandbox adds no details.
 */
export function toStatus(error: SandboxError): { code: number; message: string; details: [] } {
  const { id, grpcCode } = error.category;
  return {
    code: grpcCode,
    message: `${error.code}(${String(id)},0): ${truncateCause(error.reason)}`,
    details: [],
  };
}

const MAX_CAUSE_LENGTH = 512;

function truncateCause(cause: string) {
  return cause.length > MAX_CAUSE_LENGTH ? `${cause.slice(0, MAX_CAUSE_LENGTH)}...` : cause;
}

// ErrorInfo metadata keys are stripped to [A-Za-z0-9-_()] and 63 chars; empty values dropped.
function sanitizeContext(context: Record<string, string>) {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (value === '') continue;
    clean[key.replace(/[^A-Za-z0-9\-_()]/g, '').slice(0, 63)] = value;
  }
  return clean;
}
