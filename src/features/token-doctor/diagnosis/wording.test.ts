import { describe, expect, it } from 'vitest';
import { baseContext, goodPayload, jwt, verdictOf } from '@/testing/token-doctor-tokens';
import { diagnoseToken } from './diagnose-token';

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
});
