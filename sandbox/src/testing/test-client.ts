import { afterEach, beforeEach, expect } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../create-sandbox';
import { JS_CANTON_ERROR_KEYS } from './raw-http';
import { checkResponse } from './spec-conformance';

export type CallOptions = {
  body?: unknown;
  /** Sent as-is: malformed JSON, or binary uploads such as DARs. */
  rawBody?: string | Uint8Array;
  /** Defaults to JSON for strings and `application/octet-stream` for bytes. */
  contentType?: string;
  token?: string;
  headers?: Record<string, string>;
};

export type CallResult = {
  status: number;
  contentType: string | null;
  text: string;
  /** The raw body, for binary responses. */
  bytes: Uint8Array;
  /** Parsed JSON, or undefined for non-JSON bodies. */
  json: any;
  headers: Headers;
};

/**
 * Drives an in-process sandbox through its fetch handler, and checks every response it sees
 * against the real OpenAPI document, so each route test is also a conformance test.
 */
export function createTestSandbox(options: SandboxOptions = {}) {
  return testClientFor(createSandbox(options));
}

/** The test client of `createTestSandbox` for a sandbox made elsewhere (a fleet's member). */
export function testClientFor(sandbox: Sandbox) {
  const call = async (
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<CallResult> => {
    const headers = new Headers(options.headers);
    if (options.token !== undefined) headers.set('authorization', `Bearer ${options.token}`);
    const raw = options.rawBody;
    // Copied so the Request owns a plain ArrayBuffer-backed view.
    const body =
      raw instanceof Uint8Array
        ? new Uint8Array(raw)
        : (raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)));
    const contentType =
      options.contentType ??
      (raw instanceof Uint8Array ? 'application/octet-stream' : 'application/json');
    if (body !== undefined && !headers.has('content-type')) {
      headers.set('content-type', contentType);
    }
    const response = await sandbox.fetch(
      new Request(`http://sandbox.test${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      }),
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const responseType = response.headers.get('content-type');
    const conformance = checkResponse(
      method,
      new URL(path, 'http://x').pathname,
      response.status,
      responseType,
      text,
    );
    expect(
      conformance.errors,
      `${method} ${path} → ${String(response.status)} ${text.slice(0, 300)}`,
    ).toEqual([]);
    let json: unknown;
    if (responseType?.includes('application/json')) json = JSON.parse(text);
    return {
      status: response.status,
      contentType: responseType,
      text,
      bytes,
      json,
      headers: response.headers,
    };
  };
  return {
    sandbox,
    state: sandbox.state,
    call,
    get: (path: string, options?: CallOptions) => call('GET', path, options),
    post: (path: string, body?: unknown, options?: CallOptions) =>
      call('POST', path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: CallOptions) =>
      call('PATCH', path, { ...options, body }),
    delete: (path: string, options?: CallOptions) => call('DELETE', path, options),
    close: () => {
      sandbox.close();
    },
  };
}

export type TestSandbox = ReturnType<typeof createTestSandbox>;

/**
 * Stands for whatever `current()` gives while a test runs, so a test file can declare a per-test
 * value once at its top instead of a `let` that every hook reassigns.
 */
export function perTest<T extends object>(current: () => T | undefined): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const value = current();
      if (value === undefined) throw new Error('only available while a test runs');
      return value[key as keyof T];
    },
  });
}

/** A fresh sandbox for each test of the calling file (or `describe`), closed after it. */
export function sandboxPerTest(options: SandboxOptions = {}): TestSandbox {
  let current: TestSandbox | undefined;
  beforeEach(() => {
    current = createTestSandbox(options);
  });
  afterEach(() => {
    current?.close();
    current = undefined;
  });
  return perTest(() => current);
}

/** Asserts a JsCantonError response with the given status and code. */
export function expectError(result: CallResult, status: number, code: string) {
  expect(result.status, result.text).toBe(status);
  expect(result.contentType).toContain('application/json');
  expect(result.json.code, result.text).toBe(code);
  expect(Object.keys(result.json)).toEqual(JS_CANTON_ERROR_KEYS);
  return result.json as {
    cause: string;
    context: Record<string, string>;
    resources: string[][];
    errorCategory: number;
    grpcCodeValue: number;
  };
}

/** Asserts tapir's plain-text decode failure. */
export function expectDecodeFailure(result: CallResult, text: string) {
  expect(result.status).toBe(400);
  expect(result.contentType).toContain('text/plain');
  expect(result.text).toBe(text);
}

export const canActAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
export const canReadAs = (party: string) => ({ kind: { CanReadAs: { value: { party } } } });
export const canExecuteAs = (party: string) => ({ kind: { CanExecuteAs: { value: { party } } } });
export const plainRight = (
  kind:
    | 'ParticipantAdmin'
    | 'IdentityProviderAdmin'
    | 'CanActAsAnyParty'
    | 'CanReadAsAnyParty'
    | 'CanExecuteAsAnyParty',
) => ({ kind: { [kind]: { value: {} } } });
