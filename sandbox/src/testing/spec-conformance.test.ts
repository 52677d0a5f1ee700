import { describe, expect, it } from 'vitest';
import { checkResponse, checkSchema } from './spec-conformance';

const JSON_TYPE = 'application/json';

describe('checkResponse', () => {
  it('passes a response of the declared shape', () => {
    expect(
      checkResponse(
        'GET',
        '/v2/state/ledger-end',
        200,
        JSON_TYPE,
        '{"offset":42,"synchronizerTimes":null}',
      ),
    ).toEqual({ checked: true, errors: [] });
  });

  it('reports a body of the wrong shape', () => {
    const result = checkResponse('GET', '/v2/state/ledger-end', 200, JSON_TYPE, '{"offset":"42"}');
    expect(result).toEqual({ checked: true, errors: ['/offset must be integer'] });
  });

  it('reports a missing required field of a referenced schema', () => {
    const result = checkResponse('GET', '/v2/parties/participant-id', 200, JSON_TYPE, '{}');
    expect(result.errors).toEqual(["/ must have required property 'participantId'"]);
  });

  it('takes a literal path over a template it also matches', () => {
    // Valid for GET /v2/parties/{party}, but this path is the participant-id endpoint.
    const result = checkResponse(
      'GET',
      '/v2/parties/participant-id',
      200,
      JSON_TYPE,
      '{"partyDetails":[]}',
    );
    expect(result.errors).toEqual(["/ must have required property 'participantId'"]);
  });

  it('checks error bodies against JsCantonError under default', () => {
    const error = { code: 'X', cause: 'y', context: {}, errorCategory: 8 };
    expect(
      checkResponse('GET', '/v2/users/alice', 404, JSON_TYPE, JSON.stringify(error)).errors,
    ).toEqual([]);
    const withoutCode = { ...error, code: undefined };
    expect(
      checkResponse('GET', '/v2/users/alice', 404, JSON_TYPE, JSON.stringify(withoutCode)).errors,
    ).toEqual(["/ must have required property 'code'"]);
  });

  it('reports an undeclared content type', () => {
    // Neither the 200 (octet-stream) nor the default (JSON) response allows plain text.
    expect(checkResponse('GET', '/v2/packages/abc', 200, 'text/plain', 'abc').errors).toEqual([
      'content type text/plain is not one of application/json',
    ]);
  });

  it('reports a body where none is declared', () => {
    expect(checkResponse('GET', '/livez', 200, 'text/plain', 'ok').errors).toEqual([
      'expected no body, got ok',
    ]);
  });

  it('leaves paths outside the API unchecked', () => {
    expect(checkResponse('GET', '/v1/query', 404, JSON_TYPE, '{}')).toEqual({
      checked: false,
      errors: [],
    });
  });
});

describe('checkSchema', () => {
  it('reports a stream element of the wrong shape', () => {
    expect(checkSchema('GetLedgerEndResponse', { offset: 7 })).toEqual([]);
    expect(checkSchema('GetParticipantIdResponse', { participantId: 7 })).toEqual([
      '/participantId must be string',
    ]);
  });
});
