import { describe, expect, it } from 'vitest';
import { escapeHtml, loginPage, logoutPage, pageCsp } from './provider-pages';

describe('the provider’s pages', () => {
  it('escape every string they interpolate', () => {
    const html = loginPage({
      issuer: 'http://127.0.0.1:1/default"><script>alert(1)</script>',
      identityProviderId: "idp'<b>",
      clientId: 'ledger-console&co',
      candidates: [
        { userId: '"><img src=x onerror=alert(1)>', isDeactivated: true, notOnboarded: false },
      ],
      loginAction: '/default/interaction/x/login"',
      abortAction: '/default/interaction/x/abort',
    });

    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain("idp'<b>");
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('ledger-console&amp;co');
    expect(html).toContain('action="/default/interaction/x/login&quot;"');
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('mark themselves sandbox-only and name the buttons as the journeys expect', () => {
    const html = loginPage({
      issuer: 'http://127.0.0.1:1/acme',
      identityProviderId: 'acme-idp',
      clientId: 'ledger-console',
      candidates: [
        { userId: 'acme-admin', isDeactivated: false, notOnboarded: false },
        { userId: 'acme-new-hire', isDeactivated: false, notOnboarded: true },
      ],
      loginAction: '/acme/interaction/x/login',
      abortAction: '/acme/interaction/x/abort',
    });

    expect(html).toContain(
      'Sandbox OpenID provider — for development only, not a real identity provider',
    );
    expect(html).toContain('<button type="submit">Sign in as acme-admin</button>');
    expect(html).toMatch(
      /acme-new-hire<\/code><span class="tag">not onboarded on the participant<\/span>/,
    );
    expect(html).toContain('>Cancel</button>');
    expect(logoutPage('http://127.0.0.1:1/acme', '<form id="op.logoutForm"></form>')).toMatch(
      /<button [^>]*>Sign out of the sandbox provider<\/button>/,
    );
    // Nothing from elsewhere: no URL in any src or href, no @import.
    expect(html).not.toMatch(/(src|href)=|@import/);
  });

  it('allow form submissions to end at the console, and nothing else to load', () => {
    expect(pageCsp(['http://127.0.0.1:4173', 'http://localhost:4173'])).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:4173 http://localhost:4173; frame-ancestors 'none'; base-uri 'none'",
    );
  });
});
