import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveApiFacts, formatApiFacts } from './derive-api-facts';

const OPENAPI = `
openapi: 3.0.3
info:
  title: JSON Ledger API HTTP endpoints
  version: 9.9.9-TEST
  description: Licensed prose about the API.
paths:
  /v2/parties/{party}:
    get:
      description: Get a party.
      summary: Party details
      operationId: getV2PartiesParty
      tags: [Parties]
      deprecated: true
      parameters:
        - name: party
          in: path
          required: true
          description: The party's id.
          example: Alice::1220
          schema:
            type: string
            title: Party
      responses:
        '200':
          description: ''
          headers:
            Canton-Hash:
              required: true
              description: The hash.
              schema:
                type: string
          content:
            application/json:
              example: { partyDetails: [] }
              schema:
                $ref: '#/components/schemas/Note'
        '400':
          description: Invalid value
          content:
            text/plain:
              schema:
                type: string
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Note'
      responses:
        '200':
          description: ''
  /livez:
    get:
      responses:
        '200':
          description: ''
components:
  schemas:
    Note:
      title: Note
      description: A note with a title.
      externalDocs:
        url: https://example.com
      type: object
      required: [description, title]
      properties:
        title:
          type: string
          description: The note's title.
        description:
          type: string
          example: Some text
        kind:
          oneOf:
            - type: object
              title: First
              properties:
                tags: { type: string, description: A property called tags. }
          enum:
            - { description: an enum value is data and stays whole }
          default: { title: a default is data too }
`;

const ASYNCAPI = `
asyncapi: 2.6.0
info:
  title: JSON Ledger API WebSocket endpoints
  version: 9.9.9-TEST
  description: More prose.
channels:
  /v2/updates:
    description: Subscribe to updates.
    subscribe:
      operationId: onV2Updates
      message:
        $ref: '#/components/messages/Response'
    publish:
      operationId: sendV2Updates
      message:
        $ref: '#/components/messages/Request'
    bindings:
      ws:
        method: GET
components:
  messages:
    Request:
      payload:
        $ref: '#/components/schemas/Request'
      contentType: application/json
    Response:
      payload:
        type: string
        description: Inline payload.
  schemas:
    Request:
      title: Request
      type: object
      properties:
        beginExclusive:
          type: integer
          format: int64
          description: Where to start.
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('deriveApiFacts', () => {
  const facts = deriveApiFacts(OPENAPI, ASYNCAPI);

  it('records the source documents by version and hash', () => {
    expect(facts.source).toEqual({
      openapi: { file: 'spec/openapi.yaml', version: '9.9.9-TEST', sha256: sha256(OPENAPI) },
      asyncapi: { file: 'spec/asyncapi.yaml', version: '9.9.9-TEST', sha256: sha256(ASYNCAPI) },
    });
  });

  it('keeps paths, methods, parameters, bodies and responses without their prose', () => {
    expect(facts.http.paths).toEqual({
      '/v2/parties/{party}': {
        get: {
          deprecated: true,
          parameters: [{ name: 'party', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              headers: { 'Canton-Hash': { required: true, schema: { type: 'string' } } },
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Note' } },
              },
            },
            '400': { content: { 'text/plain': { schema: { type: 'string' } } } },
          },
        },
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
          // No content at all stays distinct from an empty one: it means "no body".
          responses: { '200': {} },
        },
      },
      '/livez': { get: { responses: { '200': {} } } },
    });
  });

  it('strips annotation keywords from schemas but keeps properties of those names', () => {
    expect(facts.http.schemas).toEqual({
      Note: {
        type: 'object',
        required: ['description', 'title'],
        properties: {
          title: { type: 'string' },
          description: { type: 'string' },
          kind: {
            oneOf: [{ type: 'object', properties: { tags: { type: 'string' } } }],
            enum: [{ description: 'an enum value is data and stays whole' }],
            default: { title: 'a default is data too' },
          },
        },
      },
    });
  });

  it('keeps the websocket channels with their request and response payloads', () => {
    expect(facts.websocket).toEqual({
      channels: {
        '/v2/updates': {
          method: 'GET',
          request: { $ref: '#/components/schemas/Request' },
          response: { type: 'string' },
        },
      },
      schemas: {
        Request: {
          type: 'object',
          properties: { beginExclusive: { type: 'integer', format: 'int64' } },
        },
      },
    });
  });

  it('writes the same text for the same documents, keys sorted at every depth', () => {
    const text = formatApiFacts(facts);
    expect(formatApiFacts(deriveApiFacts(OPENAPI, ASYNCAPI))).toBe(text);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['http', 'source', 'websocket']);
    expect(text.indexOf('"default"')).toBeLessThan(text.indexOf('"enum"'));
    expect(text.indexOf('"/livez"')).toBeLessThan(text.indexOf('"/v2/parties/{party}"'));
    expect(text.endsWith('}\n')).toBe(true);
    // Lists keep their order: `required` reads as the source wrote it.
    expect(text).toMatch(/"required": \[\s*"description",\s*"title"\s*\]/);
  });

  it('gives the same facts whatever order the source writes its keys in', () => {
    const reordered = OPENAPI.replace(
      '      type: object\n      required: [description, title]\n',
      '      required: [description, title]\n      type: object\n',
    );
    expect(reordered).not.toBe(OPENAPI);
    const again = deriveApiFacts(reordered, ASYNCAPI);
    expect(again.source.openapi.sha256).not.toBe(facts.source.openapi.sha256);
    expect(formatApiFacts({ ...again, source: facts.source })).toBe(formatApiFacts(facts));
  });

  it('rejects documents whose structure it does not understand', () => {
    expect(() =>
      deriveApiFacts('info: { version: 1 }\npaths: {}\ncomponents: { schemas: {} }\n', ASYNCAPI),
    ).toThrow('info.version: expected a string');
  });
});
