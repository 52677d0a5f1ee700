import type { v3_5 } from '@canton-network/core-ledger-client-types';
import type { AuditPage } from '@ledger-console/edge/console-api';

/**
 * Wire types of the JSON Ledger API, taken as types only from the Canton Network package (ADR 002).
 * The package is generated from the 3.5.1 document; where release 3.5.7 has more (its facts are in
 * sandbox/src/spec/canton-api-facts.json), it is added below by hand, copied from that document.
 *
 * `/livez` and `/readyz` need no local entry: the package already declares both (`getLivez`,
 * `getReadyz`), with the 200 bodies the spec gives (none, and text/plain).
 */

type TextPlain400 = {
  headers: Record<string, unknown>;
  content: { 'text/plain': string };
};

type ErrorDefault = {
  headers: Record<string, unknown>;
  content: { 'application/json': v3_5.components['schemas']['JsCantonError'] };
};

type GetOnly<Operation> = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get: Operation;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};

type PostOnly<Operation> = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post: Operation;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};

/** Schemas of 3.5.7 that the 3.5.1 package lacks (openapi.yaml `components.schemas`). */
type LocalSchemas = {
  /** GetCompletionsRequest: the successor of CompletionStreamRequest (no `userId`). */
  GetCompletionsRequest: {
    parties?: string[];
    /** Format: int64 */
    beginExclusive?: number;
  };
  GetUpdateByHashRequest: {
    transactionHash: string;
    updateFormat: v3_5.components['schemas']['UpdateFormat'];
  };
};

/**
 * A user right as 3.5.7 declares it (`Kind`): the 3.5.1 package lacks `CanActAsAnyParty`, so
 * request bodies with rights are typed with this and cast to the package's type once, where sent.
 */
export type WireRight = {
  kind?:
    v3_5.components['schemas']['Kind'] | { CanActAsAnyParty: { value: Record<string, never> } };
};

/** Operations of 3.5.7 that the 3.5.1 package lacks. */
type LocalPaths = {
  /** operationId postV2CommandsCommand-completions */
  '/v2/commands/command-completions': PostOnly<{
    parameters: {
      query?: { limit?: number; stream_idle_timeout_ms?: number };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: { content: { 'application/json': LocalSchemas['GetCompletionsRequest'] } };
    responses: {
      200: {
        headers: Record<string, unknown>;
        content: {
          'application/json': v3_5.components['schemas']['CompletionStreamResponse'][];
        };
      };
      400: TextPlain400;
      default: ErrorDefault;
    };
  }>;
  /** operationId postV2UpdatesUpdate-by-hash */
  '/v2/updates/update-by-hash': PostOnly<{
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    requestBody: { content: { 'application/json': LocalSchemas['GetUpdateByHashRequest'] } };
    responses: {
      200: {
        headers: Record<string, unknown>;
        content: { 'application/json': v3_5.components['schemas']['JsGetUpdateResponse'] };
      };
      400: TextPlain400;
      default: ErrorDefault;
    };
  }>;
};

/**
 * The console server's own endpoints that the typed client calls (packages/edge console-api.ts):
 * they take the caller's token like the Ledger API, so they go through the same client.
 */
type ConsolePaths = {
  /** AUDIT_LOG_PATH */
  '/__console/audit': GetOnly<{
    parameters: {
      query?: {
        pageSize?: number;
        pageToken?: string;
        from?: string;
        to?: string;
        actor?: string;
        action?: string;
        outcome?: 'ok' | 'failed';
        text?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: { headers: Record<string, unknown>; content: { 'application/json': AuditPage } };
      default: ErrorDefault;
    };
  }>;
};

export type paths = v3_5.paths & LocalPaths & ConsolePaths;

/** Request and response bodies by schema name: `Schemas['GetLedgerApiVersionResponse']`. */
export type Schemas = v3_5.components['schemas'] & LocalSchemas;
