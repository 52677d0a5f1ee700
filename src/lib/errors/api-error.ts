/**
 * The one error model of the console. Every failed API call becomes an {@link ApiError}; what the
 * console itself cannot read (a package the browser cannot decode, a malformed transaction) is a
 * {@link DescribedError}; and the UI only ever reads errors through {@link describeError}.
 * Framework-free so that `components/` may use it without knowing the API (style guide §B3, §B6).
 */
import { isRecord } from '@/lib/values/is-record';

/** The JSON Ledger API's error body (`JsCantonError`), with its nullable wire fields made optional. */
export type ApiErrorBody = {
  code: string;
  cause: string;
  context?: Record<string, string>;
  errorCategory?: number;
  grpcCodeValue?: number;
  correlationId?: string;
  traceId?: string;
  retryInfo?: string;
  definiteAnswer?: boolean;
  resources?: (readonly string[])[];
};

export type ErrorCategory = {
  id: number;
  name: string;
  retryable: boolean;
  /** Short, user-facing heading for errors of this category. */
  title: string;
};

// Ids, names and retryability from Canton's ErrorCategory (ledger-api-behaviour.md §1.3): a category is
// retryable exactly when Canton attaches a retryInfo to it.
const CATEGORIES: readonly ErrorCategory[] = [
  { id: 1, name: 'TransientServerFailure', retryable: true, title: 'Service unavailable' },
  { id: 2, name: 'ContentionOnSharedResources', retryable: true, title: 'Busy, try again' },
  { id: 3, name: 'DeadlineExceededRequestStateUnknown', retryable: true, title: 'Timed out' },
  { id: 4, name: 'SystemInternalAssumptionViolated', retryable: false, title: 'Internal error' },
  { id: 5, name: 'SecurityAlert', retryable: false, title: 'Rejected' },
  {
    id: 6,
    name: 'AuthInterceptorInvalidAuthenticationCredentials',
    retryable: false,
    title: 'Not authenticated',
  },
  { id: 7, name: 'InsufficientPermission', retryable: false, title: 'Not allowed' },
  { id: 8, name: 'InvalidIndependentOfSystemState', retryable: false, title: 'Invalid request' },
  {
    id: 9,
    name: 'InvalidGivenCurrentSystemStateOther',
    retryable: false,
    title: 'Not possible now',
  },
  {
    id: 10,
    name: 'InvalidGivenCurrentSystemStateResourceExists',
    retryable: false,
    title: 'Already exists',
  },
  {
    id: 11,
    name: 'InvalidGivenCurrentSystemStateResourceMissing',
    retryable: false,
    title: 'Not found',
  },
  {
    id: 12,
    name: 'InvalidGivenCurrentSystemStateSeekAfterEnd',
    retryable: true,
    title: 'Beyond the ledger end',
  },
  { id: 13, name: 'BackgroundProcessDegradationWarning', retryable: false, title: 'Degraded' },
  { id: 14, name: 'InternalUnsupportedOperation', retryable: false, title: 'Not supported' },
];

/** Canton's error categories by their wire id (`errorCategory`). */
export const categoryById: ReadonlyMap<number, ErrorCategory> = new Map(
  CATEGORIES.map((category) => [category.id, category]),
);

/** Every failed API call, whatever went wrong, surfaces as this. `status` 0 = no response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`${body.code}: ${body.cause}`);
  }

  get code(): string {
    return this.body.code;
  }

  get category(): ErrorCategory | undefined {
    return this.body.errorCategory === undefined
      ? undefined
      : categoryById.get(this.body.errorCategory);
  }
}

/**
 * A failed API call, for the few screens that map its Canton error code, cause or status to their
 * own words (a form field, a fix, a lookup's outcome). Everything else reads errors through
 * {@link describeError} and the classifiers below; screens never use `instanceof` (lint-enforced).
 */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

// Long plain-text bodies (stack traces, proxy pages) must not flood an alert.
const MAX_CAUSE_LENGTH = 1000;

/**
 * Turns whatever a failed response carried into an ApiError. The payload may be a `JsCantonError`,
 * the legacy 404 body of unknown paths, the plain-text 400 the spec declares for undecodable input,
 * an HTML page from a proxy in between, or nothing at all.
 */
export function toApiError(status: number, payload: unknown): ApiError {
  if (isRecord(payload)) {
    const body = toErrorBody(payload);
    if (body) return new ApiError(status, body);
    const legacyErrors = payload.errors;
    if (Array.isArray(legacyErrors) && legacyErrors.every((e) => typeof e === 'string')) {
      return httpError(status, legacyErrors.join('; '));
    }
  }
  if (typeof payload === 'string') return httpError(status, textCause(payload));
  return httpError(status, undefined);
}

/** fetch() itself threw (offline, DNS, CORS, server gone): still an ApiError, with status 0. */
export function networkError(cause: unknown): ApiError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(0, {
    code: 'NETWORK_UNREACHABLE',
    cause: message
      ? `The server could not be reached: ${message}`
      : 'The server could not be reached',
  });
}

/** True for failures that may pass on their own: no response at all, or a retryable category. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.category?.retryable === true;
}

/**
 * An error of the console's own, not of an API call, that says how the UI names it: so that
 * screens read it through {@link describeError} like any other, with no `instanceof` of their own.
 * Subclasses live where the error arises (the Daml-LF decoder in `src/api/`, the tree model here).
 */
export abstract class DescribedError extends Error {
  /** A short heading for what went wrong, for people who do not know the code. */
  abstract readonly title: string;
  /** A stable code of the error's origin (not a Canton error code), shown as a badge. */
  declare readonly code?: string;
  /**
   * `warning`: the console could not read something that the participant may well accept (a
   * package the browser cannot decode); `error`: the data is wrong, or something failed.
   */
  readonly severity: 'error' | 'warning' = 'error';
}

export type ErrorDescription = {
  title: string;
  message: string;
  code?: string;
  /** Only for {@link DescribedError}s that are warnings; absent means an error. */
  severity?: 'warning';
  status?: number;
  correlationId?: string;
  traceId?: string;
  /** The error's `context` entries, for operators; empty when there are none. */
  details: Record<string, string>;
  /**
   * 401 or 403: the token was refused or lacks a right. The participant redacts these bodies
   * (code `NA`), so the UI adds its own explanation and a way to sign in again.
   */
  isAuthProblem: boolean;
};

/** What the UI shows for any thrown value. The only way components read errors. */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof ApiError) {
    const { body } = error;
    if (isMaskedRefusal(error)) return describeRefusal(error);
    return {
      title: error.category?.title ?? titleForStatus(error.status),
      message: body.cause,
      code: body.code,
      status: error.status,
      ...(body.correlationId === undefined ? {} : { correlationId: body.correlationId }),
      ...(body.traceId === undefined ? {} : { traceId: body.traceId }),
      details: body.context ?? {},
      isAuthProblem: error.status === 401 || error.status === 403,
    };
  }
  if (error instanceof DescribedError) {
    return {
      title: error.title,
      message: error.message,
      ...(error.code === undefined ? {} : { code: error.code }),
      ...(error.severity === 'warning' ? { severity: 'warning' as const } : {}),
      details: {},
      isAuthProblem: false,
    };
  }
  // DOMExceptions (a file the browser could not read) are Errors in browsers, not in every DOM.
  if (error instanceof Error || isErrorLike(error)) {
    return {
      title: 'Unexpected error',
      message: error.message || error.name,
      details: {},
      isAuthProblem: false,
    };
  }
  const message = typeof error === 'string' && error ? error : 'Something went wrong.';
  return { title: 'Unexpected error', message, details: {}, isAuthProblem: false };
}

/**
 * The participant redacts every 401 and 403 to code `NA` and "A security-sensitive error has been
 * received" (ledger-api-behaviour.md §2): true for those, which the console puts in plain words.
 */
export function isMaskedRefusal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** Plain words for a refused request: what the participant's redacted answer means. */
export function explainRefusal(status: number): string {
  return status === 401
    ? 'The participant did not accept a sign-in from this browser: there was none, it expired, or it was not signed by an issuer the participant trusts.'
    : 'The participant knows who you are but refuses this: your user lacks the right it needs, is not in that identity provider, or is deactivated.';
}

function describeRefusal(error: ApiError): ErrorDescription {
  const { body } = error;
  const isSignIn = error.status === 401;
  return {
    title: isSignIn ? 'Sign-in needed' : 'Not allowed',
    message: explainRefusal(error.status),
    // The redacted code (`NA`) means nothing to a person; it stays in the details for operators.
    status: error.status,
    ...(body.correlationId === undefined ? {} : { correlationId: body.correlationId }),
    ...(body.traceId === undefined ? {} : { traceId: body.traceId }),
    details: { ...body.context, participantCode: body.code, participantSaid: body.cause },
    isAuthProblem: true,
  };
}

/**
 * The answer is not about the request: the participant (or the console's way to it) is down.
 * One banner says so for the whole console; sections then wait quietly instead of each showing it.
 */
export function isParticipantUnreachable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 0 || error.code === 'LEDGER_UNREACHABLE') return true;
  return (error.status === 502 || error.status === 504) && error.code.startsWith('HTTP_');
}

/**
 * The thing asked for does not exist: a 404 with a Canton error code (not the unknown-path 404 of
 * a missing endpoint), or any answer of the "resource missing" category.
 */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.body.errorCategory === 11) return true;
  return error.status === 404 && error.code !== 'HTTP_404';
}

function titleForStatus(status: number): string {
  if (status === 0) return 'Cannot reach the server';
  if (status === 401) return 'Not authenticated';
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Not found';
  if (status === 409) return 'Conflict';
  if (status === 502 || status === 503 || status === 504) return 'Service unavailable';
  if (status >= 500) return 'Server error';
  if (status >= 400) return 'Request failed';
  return 'Unexpected response';
}

/**
 * The participant does not offer the endpoint (an older or newer release): 404 from the
 * unknown-path route, 405 from tapir, 501 UNIMPLEMENTED (§1.2, §1.9, §1.10). A 404 with a Canton
 * error code (UPDATE_NOT_FOUND, TEMPLATES_OR_INTERFACES_NOT_FOUND…) is an answer about the request,
 * not about the endpoint, so only a 404 without one counts.
 */
export function isEndpointMissing(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 405 || error.status === 501) return true;
  return error.status === 404 && error.code === 'HTTP_404';
}

function httpError(status: number, cause: string | undefined): ApiError {
  return new ApiError(status, {
    code: `HTTP_${String(status)}`,
    cause: cause ?? `HTTP ${String(status)}`,
  });
}

function textCause(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (/^<(!doctype|html)\b/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    return title ? `Unexpected HTML response: ${title}` : 'Unexpected HTML response';
  }
  return trimmed.length > MAX_CAUSE_LENGTH ? `${trimmed.slice(0, MAX_CAUSE_LENGTH)}…` : trimmed;
}

function toErrorBody(payload: Record<string, unknown>): ApiErrorBody | undefined {
  const { code, cause } = payload;
  if (typeof code !== 'string' || typeof cause !== 'string') return undefined;
  const body: ApiErrorBody = { code, cause };
  // The wire prints absent optionals as null (ledger-api-behaviour.md §0.4); keep only real values.
  const context = stringRecord(payload.context);
  if (context) body.context = context;
  if (typeof payload.errorCategory === 'number') body.errorCategory = payload.errorCategory;
  if (typeof payload.grpcCodeValue === 'number') body.grpcCodeValue = payload.grpcCodeValue;
  if (typeof payload.correlationId === 'string') body.correlationId = payload.correlationId;
  if (typeof payload.traceId === 'string') body.traceId = payload.traceId;
  if (typeof payload.retryInfo === 'string') body.retryInfo = payload.retryInfo;
  if (typeof payload.definiteAnswer === 'boolean') body.definiteAnswer = payload.definiteAnswer;
  if (Array.isArray(payload.resources)) {
    body.resources = payload.resources.filter(
      (r): r is string[] => Array.isArray(r) && r.every((part) => typeof part === 'string'),
    );
  }
  return body;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return Object.fromEntries(entries);
}

function isErrorLike(value: unknown): value is { name: string; message: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
