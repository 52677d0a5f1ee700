import { describe, expect, it } from 'vitest';
import { issuerUrlProblem, signInConfigSnippet, signInProviderId } from './delegation';

describe('the issuer URL to fill from', () => {
  it.each([
    ['https://login.example.com/realms/x', undefined],
    ['http://127.0.0.1:4177/globex', undefined],
    ['http://localhost:8080/realms/x', undefined],
    ['http://[::1]:8080/x', undefined],
    ['', 'Required'],
    ['login.example.com', 'Must be an absolute URL, e.g. https://login.example.com/realms/x'],
    [
      'http://login.example.com',
      'Must be https (http only on loopback: 127.0.0.1, ::1, localhost)',
    ],
    ['http://10.0.0.1/x', 'Must be https (http only on loopback: 127.0.0.1, ::1, localhost)'],
    ['file:///etc/passwd', 'Must be https (http only on loopback: 127.0.0.1, ::1, localhost)'],
    ['https://user:pw@login.example.com', 'Must not contain a user name or password'],
    ['https://login.example.com/x?a=1', 'An issuer has no query or fragment'],
    [' https://login.example.com', 'Remove the spaces around it: the issuer must match exactly'],
    [`https://x.example/${'a'.repeat(2048)}`, 'At most 2048 characters'],
  ])('%s → %s', (value, problem) => {
    expect(issuerUrlProblem(value)).toBe(problem);
  });
});

describe('the sign-in configuration handed over', () => {
  it('derives a provider id the console server accepts', () => {
    expect(signInProviderId('globex-idp')).toBe('globex-idp');
    expect(signInProviderId('Acme Corp/1#eu')).toBe('acme-corp-1-eu');
    expect(signInProviderId('###')).toBe('idp');
    expect(signInProviderId(`${'a'.repeat(63)}-b`)).toBe('a'.repeat(63));
  });

  it('names the configured audience when the IdP has one', () => {
    const snippet = signInConfigSnippet({
      participantId: 'p1::1220ab',
      adminUserId: 'boss',
      config: {
        identityProviderId: 'acme',
        issuer: 'https://acme.example/',
        jwksUrl: 'https://acme.example/jwks',
        audience: 'https://ledger.acme.example',
        isDeactivated: false,
      },
    });
    expect(JSON.parse(snippet)).toMatchObject({
      providers: [
        { id: 'acme', audience: 'https://ledger.acme.example', issuer: 'https://acme.example/' },
      ],
    });
  });
});
