import { describe, expect, it } from 'vitest';
import {
  ApiError,
  categoryById,
  describeError,
  isApiError,
  isNotFound,
  isParticipantUnreachable,
  isRetryable,
  networkError,
  toApiError,
} from './api-error';
import { TransactionTreeError } from '@/lib/transaction-tree/transaction-tree-error';

// A real body as the JSON API prints it: every key present, absent values as null (§1.1).
const userNotFound = {
  code: 'USER_NOT_FOUND',
  cause: 'getting user failed for unknown user "alice"',
  correlationId: 'corr-1',
  traceId: 'b3f1c6a2d1e04f5a9c8b7a6d5e4f3a2b',
  context: { category: '11', participant: 'sandbox', user_id: 'alice' },
  resources: [['USER', 'alice']],
  errorCategory: 11,
  grpcCodeValue: 5,
  retryInfo: null,
  definiteAnswer: null,
};

describe('categoryById', () => {
  it('holds the 14 Canton categories under their wire ids', () => {
    expect([...categoryById.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(categoryById.get(1)?.name).toBe('TransientServerFailure');
    expect(categoryById.get(6)?.name).toBe('AuthInterceptorInvalidAuthenticationCredentials');
    expect(categoryById.get(10)?.name).toBe('InvalidGivenCurrentSystemStateResourceExists');
    expect(categoryById.get(11)?.name).toBe('InvalidGivenCurrentSystemStateResourceMissing');
    expect(categoryById.get(14)?.name).toBe('InternalUnsupportedOperation');
  });

  it('marks exactly the categories with a retry delay as retryable', () => {
    const retryable = [...categoryById.values()].filter((c) => c.retryable).map((c) => c.id);
    expect(retryable).toEqual([1, 2, 3, 12]);
  });
});

describe('toApiError', () => {
  it('keeps a JsCantonError body and drops its null fields', () => {
    const error = toApiError(404, userNotFound);

    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('USER_NOT_FOUND');
    expect(error.message).toBe('USER_NOT_FOUND: getting user failed for unknown user "alice"');
    expect(error.category?.name).toBe('InvalidGivenCurrentSystemStateResourceMissing');
    expect(error.body.correlationId).toBe('corr-1');
    expect(error.body.resources).toEqual([['USER', 'alice']]);
    expect(error.body).not.toHaveProperty('retryInfo');
    expect(error.body).not.toHaveProperty('definiteAnswer');
  });

  it('has no category for redacted errors (errorCategory -1)', () => {
    const error = toApiError(403, {
      code: 'NA',
      cause: 'A security-sensitive error has been received',
      errorCategory: -1,
      context: {},
    });

    expect(error.category).toBeUndefined();
    expect(error.code).toBe('NA');
  });

  it('uses a plain-text body (the 400 of undecodable input) as the cause', () => {
    const error = toApiError(400, 'Invalid value for: body (exhausted input)');

    expect(error.code).toBe('HTTP_400');
    expect(error.body.cause).toBe('Invalid value for: body (exhausted input)');
  });

  it('joins the errors of the legacy 404 body of unknown paths', () => {
    const error = toApiError(404, {
      errors: ['HttpMethod(GET), uri: http://participant/v2/nope'],
      status: 404,
      ledgerApiError: null,
    });

    expect(error.code).toBe('HTTP_404');
    expect(error.body.cause).toBe('HttpMethod(GET), uri: http://participant/v2/nope');
  });

  it('summarises an HTML page from a proxy by its title', () => {
    const html =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body></body></html>';

    expect(toApiError(502, html).body.cause).toBe('Unexpected HTML response: 502 Bad Gateway');
  });

  it('falls back to the status when there is no body', () => {
    const error = toApiError(500, undefined);

    expect(error.code).toBe('HTTP_500');
    expect(error.body.cause).toBe('HTTP 500');
    expect(toApiError(503, '   ').body.cause).toBe('HTTP 503');
  });

  it('truncates very long text bodies', () => {
    const error = toApiError(500, 'x'.repeat(5000));

    expect(error.body.cause.length).toBeLessThanOrEqual(1001);
    expect(error.body.cause.endsWith('…')).toBe(true);
  });
});

describe('networkError', () => {
  it('is an ApiError with status 0 that carries the reason', () => {
    const error = networkError(new TypeError('fetch failed'));

    expect(error.status).toBe(0);
    expect(error.code).toBe('NETWORK_UNREACHABLE');
    expect(error.body.cause).toContain('fetch failed');
  });
});

describe('isApiError', () => {
  it('tells failed API calls from every other thrown value', () => {
    expect(isApiError(toApiError(404, userNotFound))).toBe(true);
    expect(isApiError(networkError('offline'))).toBe(true);
    expect(isApiError(new TransactionTreeError('UNKNOWN_EVENT', 'What is this?'))).toBe(false);
    expect(isApiError(new Error('USER_NOT_FOUND: getting user failed'))).toBe(false);
    // Shaped like one, but not made by the client: a screen must not read it as an answer.
    expect(isApiError({ name: 'ApiError', status: 404, body: userNotFound })).toBe(false);
    expect(isApiError('USER_NOT_FOUND')).toBe(false);
    expect(isApiError(undefined)).toBe(false);
  });
});

describe('isRetryable', () => {
  it('retries network failures and transient categories only', () => {
    expect(isRetryable(networkError('offline'))).toBe(true);
    expect(isRetryable(toApiError(503, { code: 'X', cause: 'y', errorCategory: 1 }))).toBe(true);
    expect(isRetryable(toApiError(409, { code: 'X', cause: 'y', errorCategory: 2 }))).toBe(true);
    expect(isRetryable(toApiError(404, userNotFound))).toBe(false);
    expect(isRetryable(toApiError(500, 'boom'))).toBe(false);
    expect(isRetryable(new Error('not an api error'))).toBe(false);
  });
});

describe('describeError', () => {
  it('takes the title from the category and the message from the cause', () => {
    expect(describeError(toApiError(404, userNotFound))).toEqual({
      title: 'Not found',
      message: 'getting user failed for unknown user "alice"',
      code: 'USER_NOT_FOUND',
      status: 404,
      correlationId: 'corr-1',
      traceId: 'b3f1c6a2d1e04f5a9c8b7a6d5e4f3a2b',
      details: { category: '11', participant: 'sandbox', user_id: 'alice' },
      isAuthProblem: false,
    });
  });

  it('marks refused tokens and missing rights as auth problems', () => {
    expect(describeError(toApiError(401, { code: 'NA', cause: 'redacted' })).isAuthProblem).toBe(
      true,
    );
    expect(describeError(toApiError(403, { code: 'NA', cause: 'redacted' })).isAuthProblem).toBe(
      true,
    );
    expect(describeError(networkError('offline')).isAuthProblem).toBe(false);
  });

  it('puts the participant’s redacted refusals (NA) in plain words, keeping its answer in the details', () => {
    const masked = {
      code: 'NA',
      cause: 'A security-sensitive error has been received',
      correlationId: 'corr-9',
    };
    const signIn = describeError(toApiError(401, masked));
    expect(signIn.title).toBe('Sign-in needed');
    expect(signIn.message).toMatch(/did not accept a sign-in/);
    expect(signIn.code).toBeUndefined();
    expect(signIn.correlationId).toBe('corr-9');
    expect(signIn.details).toMatchObject({ participantCode: 'NA', participantSaid: masked.cause });
    const forbidden = describeError(toApiError(403, masked));
    expect(forbidden.title).toBe('Not allowed');
    expect(forbidden.message).toMatch(/lacks the right/);
  });

  it('tells "not found" answers from missing endpoints, and an unreachable participant from both', () => {
    expect(isNotFound(toApiError(404, userNotFound))).toBe(true);
    expect(isNotFound(toApiError(404, { errors: ['no such path'] }))).toBe(false);
    expect(isNotFound(networkError('offline'))).toBe(false);
    expect(isParticipantUnreachable(networkError('offline'))).toBe(true);
    expect(
      isParticipantUnreachable(toApiError(503, { code: 'LEDGER_UNREACHABLE', cause: 'down' })),
    ).toBe(true);
    expect(isParticipantUnreachable(toApiError(404, userNotFound))).toBe(false);
  });

  it('falls back to a title by HTTP status when there is no category', () => {
    expect(describeError(networkError('offline')).title).toBe('Cannot reach the server');
    expect(describeError(toApiError(500, undefined)).title).toBe('Server error');
  });

  it("describes the console's own errors by their title and code", () => {
    const error = new TransactionTreeError('OVERLAPPING_RANGES', 'Exercise 1 ends after 0', 1);
    expect(describeError(error)).toEqual({
      title: 'Malformed transaction',
      message: 'Exercise 1 ends after 0',
      code: 'OVERLAPPING_RANGES',
      details: {},
      isAuthProblem: false,
    });
  });

  it('describes errors that did not come from the API', () => {
    expect(describeError(new TypeError('x is undefined'))).toEqual({
      title: 'Unexpected error',
      message: 'x is undefined',
      details: {},
      isAuthProblem: false,
    });
    expect(describeError(undefined).message).toBe('Something went wrong.');
    // The browser's reason for a file it could not read, which may have no message.
    expect(describeError(new DOMException('', 'NotReadableError')).message).toBe(
      'NotReadableError',
    );
    expect(describeError(new DOMException('gone', 'NotFoundError')).message).toBe('gone');
  });
});
