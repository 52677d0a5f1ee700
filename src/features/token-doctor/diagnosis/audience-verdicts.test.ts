import { describe, expect, it } from 'vitest';
import {
  acmeIdp,
  acmeProvider,
  AUDIENCE,
  baseContext,
  goodPayload,
  jwt,
  verdictOf,
} from '@/testing/token-doctor-tokens';
import type { SignInProviderInfo } from './doctor-context';
import { diagnoseToken } from './diagnose-token';

describe('audience and scope', () => {
  it('prefers the audience-based form', () => {
    expect(verdictOf(jwt(goodPayload()), 'token-form').status).toBe('ok');
  });

  it('warns that scope-based tokens are deprecated, with the audience to ask for', () => {
    const token = jwt(goodPayload({ aud: undefined, scope: 'openid daml_ledger_api' }));
    const verdict = verdictOf(token, 'token-form');
    expect(verdict.status).toBe('warning');
    expect(verdict.finding).toMatch(/3\.5 deprecates.*3\.7 removes/);
    expect(verdict.fix).toMatch(/https:\/\/daml.com\/jwt\/aud\/participant\//);
  });

  it('refuses a token of neither form, and a scope-based one with several aud', () => {
    const neither = verdictOf(jwt(goodPayload({ aud: 'account' })), 'token-form');
    expect(neither.status).toBe('problem');
    expect(neither.finding).toMatch(/aud: "account"; scope: none/);
    const several = verdictOf(
      jwt(goodPayload({ aud: ['a', 'b'], scope: 'daml_ledger_api' })),
      'token-form',
    );
    expect(several.status).toBe('problem');
  });

  it('checks the participant audience against this participant', () => {
    expect(verdictOf(jwt(goodPayload()), 'participant-audience').status).toBe('ok');
    const other = verdictOf(
      jwt(goodPayload({ aud: 'https://daml.com/jwt/aud/participant/participant2::1220ffff' })),
      'participant-audience',
    );
    expect(other.status).toBe('problem');
    expect(other.finding).toMatch(/"participant2::1220ffff".*403/);
    expect(other.fix).toContain(AUDIENCE);
    const unknown = verdictOf(jwt(goodPayload()), 'participant-audience', {
      participantId: undefined,
    });
    expect(unknown.status).toBe('unknown');
  });

  it('refuses several participant audiences and an empty participant id', () => {
    const several = jwt(
      goodPayload({ aud: [AUDIENCE, 'https://daml.com/jwt/aud/participant/participant2'] }),
    );
    expect(verdictOf(several, 'token-form').status).toBe('problem');
    expect(verdictOf(several, 'participant-audience')).toMatchObject({
      status: 'problem',
      finding: expect.stringMatching(
        /Several participant audiences.*one of them is this one/,
      ) as string,
    });
    const empty = jwt(goodPayload({ aud: 'https://daml.com/jwt/aud/participant/' }));
    expect(verdictOf(empty, 'participant-audience').status).toBe('problem');
  });

  it("takes a scope-based token's single aud as the participant id", () => {
    const token = jwt(goodPayload({ aud: 'participant9', scope: 'daml_ledger_api' }));
    expect(verdictOf(token, 'participant-audience').status).toBe('problem');
    const noAud = jwt(goodPayload({ aud: undefined, scope: 'daml_ledger_api' }));
    expect(verdictOf(noAud, 'participant-audience').status).toBe('ok');
  });

  it('checks the audience an IdP configuration requires, only when it requires one', () => {
    const idp = { ...acmeIdp, audience: 'https://ledger.acme.example' };
    const context = { identityProviders: { status: 'found', value: [idp] } } as const;
    const without = jwt(goodPayload({ iss: idp.issuer }));
    expect(verdictOf(without, 'idp-audience', context).status).toBe('problem');
    const withIt = jwt(goodPayload({ iss: idp.issuer, aud: [AUDIENCE, idp.audience] }));
    expect(verdictOf(withIt, 'idp-audience', context).status).toBe('ok');
    expect(diagnoseToken(without, baseContext).map((v) => v.id)).not.toContain('idp-audience');
  });
});

describe('participant and console setup', () => {
  it('checks the audience this console asks its sign-in provider for', () => {
    const providers: SignInProviderInfo[] = [
      {
        id: 'acme',
        name: 'Acme SSO',
        issuer: acmeIdp.issuer,
        identityProviderId: 'acme',
        audience: 'https://ledger.acme.example',
      },
    ];
    const without = jwt(goodPayload({ iss: acmeIdp.issuer }));
    const verdict = verdictOf(without, 'provider-audience', { providers });
    expect(verdict.status).toBe('warning');
    expect(verdict.fix).toMatch(/Sign in through this console's "Acme SSO" provider/);
    const withIt = jwt(
      goodPayload({ iss: acmeIdp.issuer, aud: [AUDIENCE, providers[0]?.audience] }),
    );
    expect(verdictOf(withIt, 'provider-audience', { providers }).status).toBe('ok');
    // No audience configured: nothing to say.
    expect(
      diagnoseToken(without, {
        ...baseContext,
        providers: [{ ...acmeProvider(), audience: undefined }],
      }).map((v) => v.id),
    ).not.toContain('provider-audience');
  });

  it("accepts the form an IdP configuration's own audience stands for", () => {
    const idp = { ...acmeIdp, audience: 'https://ledger.acme.example' };
    const token = jwt(goodPayload({ iss: idp.issuer, aud: idp.audience }));
    expect(
      verdictOf(token, 'token-form', { identityProviders: { status: 'found', value: [idp] } })
        .status,
    ).toBe('ok');
    expect(verdictOf(token, 'token-form').status).toBe('problem');
  });
});
