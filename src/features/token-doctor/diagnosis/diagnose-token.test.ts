import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { decodeToken } from '@/lib/access/token-claims';
import {
  diagnoseToken,
  identityProviderOfToken,
  inspectToken,
  MAX_TOKEN_BYTES,
  normalizePastedToken,
  summarizeRights,
  type DoctorContext,
  type IdentityProviderInfo,
  type SignInProviderInfo,
  type Verdict,
  type VerdictId,
  userToLookUp,
} from './diagnose-token';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW / 1000;
const PARTICIPANT = 'participant1::1220abcd';
const AUDIENCE = `https://daml.com/jwt/aud/participant/${PARTICIPANT}`;

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned-looking JWT: the doctor never verifies, so any signature text will do. */
function jwt(
  payload: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT', kid: 'key-1' },
  signature = 'c2lnbmF0dXJl',
): string {
  return `${segment(header)}.${segment(payload)}.${signature}`;
}

const goodPayload = (extra: Record<string, unknown> = {}) => ({
  sub: 'alice',
  aud: AUDIENCE,
  exp: NOW_S + 3600,
  iat: NOW_S - 60,
  ...extra,
});

const acmeIdp: IdentityProviderInfo = {
  identityProviderId: 'acme',
  issuer: 'https://idp.acme.example',
  isDeactivated: false,
  audience: '',
};

const baseContext: DoctorContext = { now: NOW, participantId: PARTICIPANT };

function verdictOf(token: string, id: VerdictId, context: Partial<DoctorContext> = {}): Verdict {
  const found = diagnoseToken(token, { ...baseContext, ...context }).find((v) => v.id === id);
  if (!found) throw new Error(`No ${id} verdict`);
  return asRead(found);
}

/**
 * The verdict as a reader sees it: without the invisible isolates around quoted values (the
 * untrusted-input tests check those are there), so the wording can be matched as written.
 */
function asRead(verdict: Verdict): Verdict {
  const plain = (text: string) => text.replace(/[\u2068\u2069]/gu, '');
  return {
    ...verdict,
    finding: plain(verdict.finding),
    ...(verdict.fix === undefined ? {} : { fix: plain(verdict.fix) }),
  };
}

/** Every problem must say what to do. */
function expectFixOnProblems(verdicts: Verdict[]) {
  for (const verdict of verdicts) {
    if (verdict.status === 'problem') expect(verdict.fix, verdict.id).toMatch(/\S/);
  }
}

describe('token structure', () => {
  it('reads a good token: every verdict in order, and no problem', () => {
    const verdicts = diagnoseToken(jwt(goodPayload()), {
      ...baseContext,
      user: {
        status: 'found',
        value: { id: 'alice', isDeactivated: false, identityProviderId: '' },
      },
      rights: { status: 'found', value: [{ kind: 'CanActAs', party: 'Alice::1220' }] },
    });
    expect(verdicts.map((v) => v.id)).toEqual([
      'structure',
      'algorithm',
      'header',
      'issuer',
      'token-form',
      'participant-audience',
      'expiry',
      'not-before',
      'issued-at',
      'subject',
      'user',
      'rights',
    ]);
    expect(verdicts.filter((v) => v.status !== 'ok')).toEqual([]);
  });

  it('refuses more than 16 KB before decoding anything', () => {
    const huge = jwt(goodPayload({ padding: 'x'.repeat(MAX_TOKEN_BYTES) }));
    const verdicts = diagnoseToken(huge, baseContext);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ id: 'size', status: 'problem' });
    expect(verdicts[0]?.fix).toMatch(/Paste only the token/);
  });

  it.each([
    ['', /no token/],
    ['abc.def', /three base64url parts.*this has 2/],
    ['a.b.c.d.e', /encrypted token \(JWE\)/],
    [`${segment({ alg: 'RS256' })}.${segment({ sub: 'a' })}=.sig`, /outside base64url/],
    [`bm90IGpzb24.${segment({ sub: 'a' })}.sig`, /header is not/],
    [`${segment({ alg: 'RS256' })}.${segment(['array'])}.sig`, /payload is not/],
  ])('says why %j is not a readable JWT, with a fix', (token, finding) => {
    const [verdict, ...rest] = diagnoseToken(token, baseContext);
    expect(rest).toEqual([]);
    expect(verdict).toMatchObject({ id: 'structure', status: 'problem' });
    expect(verdict?.finding).toMatch(finding);
    expect(verdict?.fix).toMatch(/\S/);
  });

  it('calls an empty signature an unsigned token', () => {
    expect(verdictOf(jwt(goodPayload(), { alg: 'RS256' }, ''), 'structure')).toMatchObject({
      status: 'problem',
      finding: expect.stringMatching(/unsigned/) as string,
    });
  });

  it('decodes a token jose really signed, and keeps decodeToken working', async () => {
    const secret = new TextEncoder().encode('a-test-secret-of-at-least-32-bytes!!');
    const token = await new SignJWT({ scope: 'daml_ledger_api' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('participant_admin')
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(secret);
    const inspected = inspectToken(token);
    expect(inspected.kind).toBe('jwt');
    if (inspected.kind !== 'jwt') return;
    expect(inspected.header).toEqual({ alg: 'HS256' });
    expect(inspected.claims.subject).toBe('participant_admin');
    expect(decodeToken(token)).toMatchObject({
      kind: 'jwt',
      claims: { subject: 'participant_admin', scopes: ['daml_ledger_api'] },
    });
  });

  it('strips a Bearer prefix and line breaks from pasted text', () => {
    expect(normalizePastedToken('  Bearer abc.\n def.\r\nghi  ')).toBe('abc.def.ghi');
  });
});

describe('header', () => {
  it.each([
    [{ alg: 'RS256', kid: 'k' }, 'ok', /RS256/],
    [{ alg: 'ES256', kid: 'k' }, 'ok', /jwt-es256-crt/],
    [{ alg: 'HS256' }, 'warning', /unsafe-jwt-hmac-256/],
    [{ alg: 'none' }, 'problem', /"none".*refuses/],
    [{ typ: 'JWT' }, 'problem', /no alg/],
    [{ alg: 'RS512', kid: 'k' }, 'problem', /"RS512".*401/],
  ])('judges alg in %j as %s', (header, status, finding) => {
    const verdict = verdictOf(jwt(goodPayload(), header), 'algorithm');
    expect(verdict.status).toBe(status);
    expect(verdict.finding).toMatch(finding);
    if (status === 'problem') expect(verdict.fix).toMatch(/\S/);
  });

  it('refuses HS256 for an issuer an IdP configuration verifies with JWKS', () => {
    const token = jwt(goodPayload({ iss: acmeIdp.issuer }), { alg: 'HS256' });
    const verdict = verdictOf(token, 'algorithm', {
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(verdict).toMatchObject({ status: 'problem' });
    expect(verdict.finding).toMatch(/IdP configuration "acme"/);
  });

  it('warns about an RS256 token without kid, and accepts HS256 without one', () => {
    const noKid = verdictOf(jwt(goodPayload(), { alg: 'RS256', typ: 'JWT' }), 'header');
    expect(noKid.status).toBe('warning');
    expect(noKid.finding).toMatch(/typ is "JWT".*no kid/);
    expect(noKid.fix).toMatch(/kid/);
    expect(verdictOf(jwt(goodPayload(), { alg: 'HS256' }), 'header').status).toBe('ok');
    expect(verdictOf(jwt(goodPayload()), 'header').finding).toMatch(/kid is "key-1"/);
  });
});

describe('issuer', () => {
  const acmeProvider: SignInProviderInfo = {
    id: 'acme',
    name: 'Acme SSO',
    issuer: acmeIdp.issuer,
    identityProviderId: 'acme',
  };
  const providers = [acmeProvider];
  const issuerOf = (iss: string | undefined, context: Partial<DoctorContext> = {}) =>
    verdictOf(jwt(goodPayload(iss === undefined ? {} : { iss })), 'issuer', context);

  it('sends a token without iss to the default IdP', () => {
    expect(issuerOf(undefined)).toMatchObject({ status: 'ok' });
    expect(issuerOf(undefined).finding).toMatch(/default IdP/);
    expect(identityProviderOfToken({}, {})).toEqual({ identityProviderId: '', certain: true });
  });

  it('names the IdP configuration Canton picks for an active issuer', () => {
    const context = { identityProviders: { status: 'found', value: [acmeIdp] } } as const;
    expect(issuerOf(acmeIdp.issuer, context)).toMatchObject({ status: 'ok' });
    expect(issuerOf(acmeIdp.issuer, context).finding).toMatch(/picks IdP configuration "acme"/);
    expect(identityProviderOfToken({ issuer: acmeIdp.issuer }, context)).toEqual({
      identityProviderId: 'acme',
      certain: true,
    });
  });

  it('calls an unknown issuer a 401, with the fix', () => {
    const verdict = issuerOf('https://evil.example', {
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.finding).toMatch(/Unknown issuer "https:\/\/evil.example".*401/);
    expect(verdict.fix).toMatch(/Add an IdP configuration/);
  });

  it('calls a deactivated IdP configuration a problem', () => {
    const verdict = issuerOf(acmeIdp.issuer, {
      identityProviders: { status: 'found', value: [{ ...acmeIdp, isDeactivated: true }] },
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.fix).toMatch(/Reactivate IdP configuration "acme"/);
    // Canton then looks the user up in the default IdP.
    expect(
      identityProviderOfToken(
        { issuer: acmeIdp.issuer },
        { identityProviders: { status: 'found', value: [{ ...acmeIdp, isDeactivated: true }] } },
      ).identityProviderId,
    ).toBe('');
  });

  it('points at a trailing slash, which Canton does not forgive', () => {
    const verdict = issuerOf(`${acmeIdp.issuer}/`, {
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.finding).toMatch(/compares issuers exactly/);
  });

  it('flags a sign-in provider whose IdP has no configuration, and one that disagrees', () => {
    const missing = issuerOf(acmeIdp.issuer, {
      providers,
      identityProviders: { status: 'found', value: [] },
    });
    expect(missing.status).toBe('problem');
    expect(missing.fix).toMatch(/Create IdP configuration "acme"/);
    const disagrees = issuerOf(acmeIdp.issuer, {
      providers: [{ ...acmeProvider, identityProviderId: '' }],
      identityProviders: { status: 'found', value: [acmeIdp] },
    });
    expect(disagrees.status).toBe('warning');
    expect(disagrees.fix).toMatch(/identityProviderId to "acme"/);
  });

  it('falls back on the sign-in providers when the IdP configurations cannot be read', () => {
    const context = { providers, identityProviders: { status: 'forbidden' } } as const;
    const known = issuerOf(acmeIdp.issuer, context);
    expect(known.status).toBe('ok');
    expect(known.finding).toMatch(/Acme SSO.*participant admin/);
    expect(identityProviderOfToken({ issuer: acmeIdp.issuer }, context)).toEqual({
      identityProviderId: 'acme',
      certain: false,
    });
    expect(issuerOf('https://other.example', context).status).toBe('warning');
    expect(issuerOf('https://other.example', { providers: [] }).status).toBe('unknown');
    expect(issuerOf('https://other.example').status).toBe('unknown');
  });
});

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

describe('times', () => {
  it.each([
    [3600, 'ok', /Valid for 60 min more/],
    [200, 'warning', /Expires in 3 min/],
    [30, 'warning', /within 60 s/],
    [-30, 'warning', /within 60 s/],
    [-7200, 'problem', /Expired 2 h ago \(2026-01-15T10:00:00Z\).*401/],
  ])('judges exp at now + %i s as %s', (offset, status, finding) => {
    const verdict = verdictOf(jwt(goodPayload({ exp: NOW_S + offset })), 'expiry');
    expect(verdict.status).toBe(status);
    expect(verdict.finding).toMatch(finding);
  });

  it('warns about a token that never expires and refuses a non-numeric exp', () => {
    expect(verdictOf(jwt(goodPayload({ exp: undefined })), 'expiry').status).toBe('warning');
    expect(verdictOf(jwt(goodPayload({ exp: 'tomorrow' })), 'expiry').status).toBe('problem');
  });

  it('honours the given clock skew', () => {
    const token = jwt(goodPayload({ exp: NOW_S - 30 }));
    expect(verdictOf(token, 'expiry', { clockSkewSeconds: 0 }).status).toBe('problem');
  });

  it.each([
    ['not-before', 'nbf'],
    ['issued-at', 'iat'],
  ] as const)('judges %s (%s) in the future beyond and within the skew', (id, claim) => {
    expect(verdictOf(jwt(goodPayload({ [claim]: NOW_S + 600 })), id)).toMatchObject({
      status: 'problem',
      finding: expect.stringMatching(/10 min ahead.*401/) as string,
    });
    expect(verdictOf(jwt(goodPayload({ [claim]: NOW_S + 20 })), id).status).toBe('warning');
    expect(verdictOf(jwt(goodPayload({ [claim]: NOW_S - 20 })), id).status).toBe('ok');
    expect(verdictOf(jwt(goodPayload({ [claim]: undefined })), id).status).toBe('ok');
  });
});

describe('user', () => {
  it('checks sub against the user-id rules', () => {
    expect(verdictOf(jwt(goodPayload()), 'subject').status).toBe('ok');
    const missing = verdictOf(jwt(goodPayload({ sub: undefined })), 'subject');
    expect(missing.status).toBe('problem');
    const badChar = verdictOf(jwt(goodPayload({ sub: 'alice smith' })), 'subject');
    expect(badChar.status).toBe('problem');
    expect(badChar.finding).toMatch(/U\+0020.*INVALID_TOKEN/);
    expect(badChar.fix).toMatch(/valid user id/);
    const long = verdictOf(jwt(goodPayload({ sub: 'a'.repeat(129) })), 'subject');
    expect(long.finding).toMatch(/129 characters long/);
    // Nothing to look up then.
    expect(verdictOf(jwt(goodPayload({ sub: 'a b' })), 'user').status).toBe('unknown');
  });

  const user = (value: Partial<{ isDeactivated: boolean; identityProviderId: string }> = {}) =>
    ({
      status: 'found',
      value: { id: 'alice', isDeactivated: false, identityProviderId: '', ...value },
    }) as const;

  it('finds an active user of the right IdP', () => {
    expect(verdictOf(jwt(goodPayload()), 'user', { user: user() }).status).toBe('ok');
  });

  it('calls a deactivated user a 403, with the fix', () => {
    const verdict = verdictOf(jwt(goodPayload()), 'user', {
      user: user({ isDeactivated: true }),
    });
    expect(verdict.status).toBe('problem');
    expect(verdict.finding).toMatch(/deactivated.*403/);
    expect(verdict.fix).toMatch(/Reactivate user "alice"/);
  });

  it('calls a missing user and one of another IdP a 403', () => {
    const missing = verdictOf(jwt(goodPayload()), 'user', { user: { status: 'not-found' } });
    expect(missing).toMatchObject({ status: 'problem' });
    expect(missing.fix).toMatch(/Create user "alice" in the default IdP/);
    const elsewhere = verdictOf(jwt(goodPayload()), 'user', {
      user: user({ identityProviderId: 'acme' }),
    });
    expect(elsewhere.status).toBe('problem');
    expect(elsewhere.finding).toMatch(/belongs to IdP "acme".*403/);
    const forbiddenToAdmin = verdictOf(jwt(goodPayload()), 'user', {
      user: { status: 'forbidden' },
      callerIsParticipantAdmin: true,
    });
    expect(forbiddenToAdmin.status).toBe('problem');
    expect(forbiddenToAdmin.finding).toMatch(/another IdP/);
  });

  it('stays unknown when the lookup could not be made', () => {
    for (const lookup of [
      { status: 'signed-out' },
      { status: 'forbidden' },
      { status: 'failed', message: 'Network down' },
    ] as const) {
      expect(verdictOf(jwt(goodPayload()), 'user', { user: lookup }).status).toBe('unknown');
    }
    expect(
      verdictOf(jwt(goodPayload()), 'user', { user: { status: 'signed-out' } }).finding,
    ).toMatch(/Sign in to look up user "alice"/);
  });

  it('sums up the rights, and warns when there are none', () => {
    const rights = verdictOf(jwt(goodPayload()), 'rights', {
      user: user(),
      rights: {
        status: 'found',
        value: [
          { kind: 'ParticipantAdmin' },
          { kind: 'CanActAs', party: 'a' },
          { kind: 'CanActAs', party: 'b' },
          { kind: 'CanReadAs', party: 'c' },
        ],
      },
    });
    expect(rights).toMatchObject({
      status: 'ok',
      finding: 'Participant admin, acts as 2 parties, reads as 1 party.',
    });
    const none = verdictOf(jwt(goodPayload()), 'rights', {
      user: user(),
      rights: { status: 'found', value: [] },
    });
    expect(none.status).toBe('warning');
    expect(none.finding).toMatch(/read-only/);
    expect(verdictOf(jwt(goodPayload()), 'rights', { user: { status: 'not-found' } }).status).toBe(
      'unknown',
    );
    expect(
      summarizeRights([{ kind: 'IdentityProviderAdmin' }, { kind: 'CanReadAsAnyParty' }]),
    ).toEqual(['IdP admin', 'reads as any party']);
  });
});

describe('untrusted input', () => {
  it('quotes claim values as text, escaping control characters and cutting long ones', () => {
    const token = jwt(goodPayload({ iss: `<img src=x onerror=alert(1)>\u0007${'y'.repeat(300)}` }));
    const verdict = verdictOf(token, 'issuer', {
      identityProviders: { status: 'found', value: [] },
    });
    expect(verdict.finding).toContain('"<img src=x onerror=alert(1)>⟨U+0007⟩');
    expect(verdict.finding).toMatch(/… \(\d+ characters\)"/);
    expect(verdict.finding.length).toBeLessThan(400);
  });

  it('shows bidi characters in a claim and isolates it from the rest of its sentence', () => {
    const header = { alg: 'RS256', typ: 'JWT', kid: 'key-\u202E1-yek' };
    const [verdict] = diagnoseToken(jwt(goodPayload(), header), baseContext).filter(
      (v) => v.id === 'header',
    );
    // Isolated (FSI … PDI) inside the quotes, the override shown and no raw one left anywhere.
    expect(verdict?.finding).toContain('kid is "\u2068key-⟨U+202E⟩1-yek\u2069"');
    expect(verdict?.finding).not.toMatch(/\u202E/u);
  });

  it('gives every problem a fix', () => {
    const tokens = [
      jwt({ aud: ['x', 'y'], exp: 'never', nbf: NOW_S + 9999, sub: '' }, { alg: 'none' }, ''),
      jwt(goodPayload({ iss: 'https://unknown.example', exp: NOW_S - 9999 })),
    ];
    for (const token of tokens) {
      expectFixOnProblems(
        diagnoseToken(token, {
          ...baseContext,
          identityProviders: { status: 'found', value: [acmeIdp] },
          user: { status: 'not-found' },
        }),
      );
    }
  });
});

describe('the user to look up', () => {
  it('is the valid sub in the IdP the issuer selects, and nobody without one', () => {
    const context = { identityProviders: { status: 'found', value: [acmeIdp] } } as const;
    expect(userToLookUp({ subject: 'alice', issuer: acmeIdp.issuer }, context)).toEqual({
      userId: 'alice',
      identityProviderId: 'acme',
    });
    expect(userToLookUp({ subject: 'alice' }, context)).toEqual({
      userId: 'alice',
      identityProviderId: '',
    });
    expect(userToLookUp({ subject: 'not valid' }, context)).toBeUndefined();
    expect(userToLookUp({}, context)).toBeUndefined();
  });
});

describe('participant and console setup', () => {
  it('says first when the participant ignores tokens altogether', () => {
    const verdicts = diagnoseToken(jwt(goodPayload()), {
      ...baseContext,
      participantIgnoresTokens: true,
    });
    expect(verdicts.map((v) => v.id).slice(0, 2)).toEqual(['structure', 'participant-auth']);
    expect(verdicts[1]).toMatchObject({
      status: 'warning',
      finding: expect.stringMatching(/without auth services and ignores tokens/) as string,
    });
    expect(diagnoseToken(jwt(goodPayload()), baseContext).map((v) => v.id)).not.toContain(
      'participant-auth',
    );
  });

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

function acmeProvider(): SignInProviderInfo {
  return { id: 'acme', name: 'Acme SSO', issuer: acmeIdp.issuer, identityProviderId: 'acme' };
}
