import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import {
  API_FACTS_FILE,
  type ApiFacts,
  type ChannelFacts,
  type JsonSchema,
  type MediaTypes,
  type OperationFacts,
  type ParameterFacts,
  type ResponseFacts,
} from './api-facts';

/** Where the sources sit inside a Canton reference folder (see testing/reference-dir.ts). */
export const OPENAPI_SOURCE = 'spec/openapi.yaml';
export const ASYNCAPI_SOURCE = 'spec/asyncapi.yaml';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Schema keywords that only annotate: dropping them changes no validation result, and they are
 * most of the documents' bulk and all of their licence-bearing prose.
 */
const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'tags',
  '$comment',
]);
/** Keywords whose value maps names (never keywords) to schemas. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
]);
/** Keywords whose value is one schema, or a list of them for `items` in older drafts. */
const SUBSCHEMAS = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`${where}: expected an object`);
  return value;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`${where}: expected a string`);
  return value;
}

/** `{ [key]: value }` when the source has a boolean there, `{}` when it has none. */
function flag(
  source: Record<string, unknown>,
  key: string,
  where: string,
): Record<string, boolean> {
  const value = source[key];
  if (value === undefined) return {};
  if (typeof value !== 'boolean') throw new Error(`${where}.${key}: expected a boolean`);
  return { [key]: value };
}

/** A schema without its annotations; enum, const and default values are data and stay whole. */
export function stripSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripSchema);
  if (!isRecord(schema)) return schema;
  const kept: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (SCHEMA_MAPS.has(keyword)) {
      kept[keyword] = Object.fromEntries(
        Object.entries(record(value, keyword)).map(([name, sub]) => [name, stripSchema(sub)]),
      );
    } else if (SUBSCHEMAS.has(keyword) || SCHEMA_LISTS.has(keyword)) {
      kept[keyword] = stripSchema(value);
    } else {
      kept[keyword] = value;
    }
  }
  return kept;
}

function schemaOf(value: unknown, where: string): { schema?: JsonSchema } {
  if (value === undefined) return {};
  return { schema: record(stripSchema(value), where) };
}

function mediaTypes(value: unknown, where: string): MediaTypes {
  return Object.fromEntries(
    Object.entries(record(value, where)).map(([mediaType, entry]) => [
      mediaType,
      schemaOf(record(entry, `${where}.${mediaType}`).schema, `${where}.${mediaType}.schema`),
    ]),
  );
}

function noReference(value: Record<string, unknown>, where: string): void {
  // Canton's documents inline parameters, bodies and responses; a shared one would need resolving.
  if ('$ref' in value) throw new Error(`${where}: $ref outside schemas is not supported`);
}

function parameter(value: unknown, where: string): ParameterFacts {
  const source = record(value, where);
  noReference(source, where);
  return {
    name: text(source.name, `${where}.name`),
    in: text(source.in, `${where}.in`),
    ...flag(source, 'required', where),
    ...flag(source, 'deprecated', where),
    ...schemaOf(source.schema, `${where}.schema`),
  };
}

function response(value: unknown, where: string): ResponseFacts {
  const source = record(value, where);
  noReference(source, where);
  const facts: ResponseFacts = {};
  if (source.headers !== undefined) {
    facts.headers = Object.fromEntries(
      Object.entries(record(source.headers, `${where}.headers`)).map(([name, header]) => {
        const headerWhere = `${where}.headers.${name}`;
        const entry = record(header, headerWhere);
        return [
          name,
          {
            ...flag(entry, 'required', headerWhere),
            ...schemaOf(entry.schema, `${headerWhere}.schema`),
          },
        ];
      }),
    );
  }
  // Absent and empty content differ to the conformance check (no body vs. any declared body).
  if (source.content !== undefined) facts.content = mediaTypes(source.content, `${where}.content`);
  return facts;
}

function operation(value: unknown, where: string): OperationFacts {
  const source = record(value, where);
  const facts: OperationFacts = {
    ...flag(source, 'deprecated', where),
    responses: Object.fromEntries(
      Object.entries(record(source.responses, `${where}.responses`)).map(([status, entry]) => [
        status,
        response(entry, `${where}.responses.${status}`),
      ]),
    ),
  };
  if (source.parameters !== undefined) {
    if (!Array.isArray(source.parameters)) throw new Error(`${where}.parameters: expected a list`);
    facts.parameters = source.parameters.map((entry, index) =>
      parameter(entry, `${where}.parameters[${String(index)}]`),
    );
  }
  if (source.requestBody !== undefined) {
    const body = record(source.requestBody, `${where}.requestBody`);
    noReference(body, `${where}.requestBody`);
    facts.requestBody = {
      ...flag(body, 'required', `${where}.requestBody`),
      content: mediaTypes(body.content, `${where}.requestBody.content`),
    };
  }
  return facts;
}

function schemas(components: unknown, where: string): Record<string, JsonSchema> {
  const all = record(record(components, where).schemas, `${where}.schemas`);
  return Object.fromEntries(
    Object.entries(all).map(([name, schema]) => [
      name,
      record(stripSchema(schema), `${where}.schemas.${name}`),
    ]),
  );
}

/** A channel's message payload, following a `#/components/messages/…` reference. */
function payload(message: unknown, messages: Record<string, unknown>, where: string): JsonSchema {
  let entry = record(message, where);
  if (typeof entry.$ref === 'string') {
    const prefix = '#/components/messages/';
    if (!entry.$ref.startsWith(prefix)) throw new Error(`${where}: unsupported $ref ${entry.$ref}`);
    const name = entry.$ref.slice(prefix.length);
    entry = record(messages[name], `components.messages.${name}`);
  }
  return record(stripSchema(entry.payload), `${where}.payload`);
}

function channel(value: unknown, messages: Record<string, unknown>, where: string): ChannelFacts {
  const source = record(value, where);
  const bindings = record(record(source.bindings, `${where}.bindings`).ws, `${where}.bindings.ws`);
  return {
    method: text(bindings.method, `${where}.bindings.ws.method`),
    // AsyncAPI 2 names operations from the application's view: it publishes what the client
    // sends and subscribes to what the server sends.
    request: payload(record(source.publish, `${where}.publish`).message, messages, where),
    response: payload(record(source.subscribe, `${where}.subscribe`).message, messages, where),
  };
}

function sha256(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function version(document: Record<string, unknown>, where: string): string {
  return text(record(document.info, `${where} info`).version, `${where} info.version`);
}

/** Objects with their keys sorted, at every depth; list order is meaningful and kept. */
function sorted(value: unknown): Json {
  if (Array.isArray(value)) return value.map(sorted);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted(value[key])]),
    );
  }
  return value as Json;
}

/** The facts of Canton's OpenAPI and AsyncAPI documents: structure and schemas, no prose. */
export function deriveApiFacts(openapiText: string, asyncapiText: string): ApiFacts {
  const openapi = record(parse(openapiText), OPENAPI_SOURCE);
  const asyncapi = record(parse(asyncapiText), ASYNCAPI_SOURCE);
  const paths = Object.fromEntries(
    Object.entries(record(openapi.paths, 'paths')).map(([template, item]) => [
      template,
      Object.fromEntries(
        Object.entries(record(item, `paths.${template}`))
          .filter(([method]) => HTTP_METHODS.has(method))
          .map(([method, entry]) => [method, operation(entry, `paths.${template}.${method}`)]),
      ),
    ]),
  );
  const asyncComponents = record(asyncapi.components, 'asyncapi components');
  const messages = record(asyncComponents.messages ?? {}, 'asyncapi components.messages');
  const channels = Object.fromEntries(
    Object.entries(record(asyncapi.channels, 'channels')).map(([name, entry]) => [
      name,
      channel(entry, messages, `channels.${name}`),
    ]),
  );
  return sorted({
    source: {
      openapi: {
        file: OPENAPI_SOURCE,
        version: version(openapi, OPENAPI_SOURCE),
        sha256: sha256(openapiText),
      },
      asyncapi: {
        file: ASYNCAPI_SOURCE,
        version: version(asyncapi, ASYNCAPI_SOURCE),
        sha256: sha256(asyncapiText),
      },
    },
    http: { paths, schemas: schemas(openapi.components, 'components') },
    websocket: { channels, schemas: schemas(asyncComponents, 'asyncapi components') },
  }) as ApiFacts;
}

/** The committed file's exact text: stable formatting so that it diffs and compares. */
export function formatApiFacts(facts: ApiFacts): string {
  return `${JSON.stringify(sorted(facts), null, 2)}\n`;
}

/** Derives the facts from the documents in a Canton reference folder. */
export function deriveFromReferenceDir(referenceDir: string): ApiFacts {
  const read = (file: string) => readFileSync(path.join(referenceDir, file), 'utf8');
  return deriveApiFacts(read(OPENAPI_SOURCE), read(ASYNCAPI_SOURCE));
}

function main(args: string[]): void {
  const referenceDir = args[0] ?? process.env.CANTON_REFERENCE_DIR;
  if (referenceDir === undefined || referenceDir === '') {
    throw new Error(
      'usage: npm run spec:derive [-- <reference dir>] (default $CANTON_REFERENCE_DIR), a folder holding spec/openapi.yaml and spec/asyncapi.yaml',
    );
  }
  const facts = deriveFromReferenceDir(referenceDir);
  writeFileSync(API_FACTS_FILE, formatApiFacts(facts));
  const operations = Object.values(facts.http.paths).flatMap((item) => Object.keys(item)).length;
  console.log(
    `${path.relative(process.cwd(), API_FACTS_FILE)}: Canton ${facts.source.openapi.version}, ` +
      `${String(operations)} operations, ${String(Object.keys(facts.http.schemas).length)} schemas, ` +
      `${String(Object.keys(facts.websocket.channels).length)} websocket channels`,
  );
}

const invoked = process.argv[1];
if (invoked !== undefined && import.meta.url === pathToFileURL(path.resolve(invoked)).href) {
  main(process.argv.slice(2));
}
