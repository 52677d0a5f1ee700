import { describe, expect, it } from 'vitest';
import { accessRequestQuery, parseAccessRequest, type AccessRequest } from './access-request';

const request: AccessRequest = {
  issuer: 'https://login.example.com/realms/acme',
  subject: 'dana.k',
  identityProviderId: 'acme-idp',
  name: 'Dana K',
  email: 'dana@example.com',
  requestedAccess: 'act as my own party',
};

const parse = (query: string) => parseAccessRequest(new URLSearchParams(query));

describe('access request links', () => {
  it('round-trips every field through the query string', () => {
    const query = accessRequestQuery(request);
    expect(query).toContain('v=1');
    expect(parse(query)).toEqual({ ok: true, request, warnings: [] });
    const minimal = {
      issuer: 'http://127.0.0.1:4180/default',
      subject: 'x',
      identityProviderId: '',
    };
    expect(parse(accessRequestQuery(minimal))).toEqual({
      ok: true,
      request: minimal,
      warnings: [],
    });
  });

  it('clips what the person typed to its bound when building the link', () => {
    const query = accessRequestQuery({ ...request, requestedAccess: 'a'.repeat(2000) });
    const parsed = parse(query);
    expect(parsed.ok && parsed.request.requestedAccess?.length).toBe(500);
  });

  it('refuses links that are not requests or of another version', () => {
    expect(parse('iss=https://a.example&sub=x')).toEqual({
      ok: false,
      problems: ['This is not an access request link (it has no version).'],
    });
    expect(parse('v=2&iss=https://a.example&sub=x')).toMatchObject({ ok: false });
  });

  it.each([
    ['v=1&sub=x', 'The link has no issuer.'],
    ['v=1&iss=https://a.example', 'The link has no subject.'],
    ['v=1&iss=javascript:alert(1)&sub=x', 'The issuer is not an http or https URL.'],
    ['v=1&iss=https://a.example&sub=x&sub=y', 'The link names the subject more than once.'],
    [
      `v=1&iss=https://a.example&sub=x&name=${'n'.repeat(201)}`,
      'The name is longer than 200 characters.',
    ],
    ['v=1&iss=https://a.example&sub=x&email=not-an-email', 'The email is not an email address.'],
    [
      'v=1&iss=https://a.example&sub=x&idp=bad%3Cid%3E',
      'The identity provider id is not a valid identifier.',
    ],
    [
      'v=1&iss=https://a.example&sub=x&name=a%0Ab',
      'The name contains control or direction-changing characters.',
    ],
    [
      'v=1&iss=https://a.example&sub=x&name=%E2%80%AEevil',
      'The name contains control or direction-changing characters.',
    ],
  ])('names the problem of %s', (query, problem) => {
    const parsed = parse(query);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toContain(problem);
  });

  it('warns about a subject Canton cannot take as a user id, without refusing the request', () => {
    const parsed = parse('v=1&iss=https://a.example&sub=dana%20k');
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.warnings[0]).toContain('is not a valid Canton user id');
  });
});
