import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The facts of Canton's published JSON Ledger API documents that the sandbox and its tests rely
 * on, derived by `npm run spec:derive` (derive-api-facts.ts) into canton-api-facts.json. The
 * documents themselves stay outside the repo; a clone needs only this file.
 */
export type ApiFacts = {
  source: { openapi: SourceDocument; asyncapi: SourceDocument };
  http: {
    /** Path template → lower-case method → operation. */
    paths: Record<string, Record<string, OperationFacts>>;
    /** `components.schemas` of the OpenAPI document; `$ref`s keep its `#/components/schemas/…` form. */
    schemas: Record<string, JsonSchema>;
  };
  websocket: {
    channels: Record<string, ChannelFacts>;
    /** `components.schemas` of the AsyncAPI document, which differ from the OpenAPI ones in places. */
    schemas: Record<string, JsonSchema>;
  };
};

export type SourceDocument = { file: string; version: string; sha256: string };

export type JsonSchema = Record<string, unknown>;

export type MediaTypes = Record<string, { schema?: JsonSchema }>;

export type ParameterFacts = {
  name: string;
  in: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: JsonSchema;
};

export type ResponseFacts = {
  headers?: Record<string, { required?: boolean; schema?: JsonSchema }>;
  content?: MediaTypes;
};

export type OperationFacts = {
  deprecated?: boolean;
  parameters?: ParameterFacts[];
  requestBody?: { required?: boolean; content: MediaTypes };
  /** Status code (or `default`) → response. */
  responses: Record<string, ResponseFacts>;
};

export type ChannelFacts = {
  /** The HTTP method of the websocket handshake (the channel's `ws` binding). */
  method: string;
  /** What the client sends (the AsyncAPI `publish` message's payload). */
  request: JsonSchema;
  /** What the server sends (the AsyncAPI `subscribe` message's payload). */
  response: JsonSchema;
};

// Not `new URL('./canton-api-facts.json', import.meta.url)`: Vite rewrites that pattern into an
// asset URL in the jsdom test project, which fileURLToPath then refuses.
export const API_FACTS_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'canton-api-facts.json',
);

let cached: ApiFacts | undefined;

/** The committed facts, read once. */
export function loadApiFacts(): ApiFacts {
  cached ??= JSON.parse(readFileSync(API_FACTS_FILE, 'utf8')) as ApiFacts;
  return cached;
}
