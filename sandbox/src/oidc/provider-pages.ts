/**
 * The embedded provider's own HTML: the login page, the sign-out confirmation and the small pages
 * around them. Inline styles only and no external resources, so the pages render offline and a
 * page of the provider never pulls anything from the Internet (oidc-provider's defaults load a
 * Google font).
 */

/** Everything interpolated into the pages goes through this: user ids and annotations are user input. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export const SANDBOX_BANNER =
  'Sandbox OpenID provider — for development only, not a real identity provider';

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1a1b1e; }
  main { max-width: 40rem; margin: 2rem auto; background: #fff; padding: 1.5rem 2rem;
    border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  .banner { background: #fff3bf; border: 1px solid #f59f00; padding: .75rem 1rem;
    border-radius: 6px; font-weight: 600; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { color: #555; } dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
  ul { list-style: none; padding: 0; }
  li { display: flex; align-items: center; justify-content: space-between; gap: 1rem;
    padding: .5rem 0; border-bottom: 1px solid #eee; }
  .note { color: #555; font-size: .875rem; }
  .tag { font-size: .75rem; background: #eee; border-radius: 4px; padding: .1rem .4rem; margin-left: .5rem; }
  button { font: inherit; padding: .35rem .9rem; border-radius: 4px; border: 1px solid #228be6;
    background: #228be6; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #228be6; }
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="banner" role="note">${escapeHtml(SANDBOX_BANNER)}</p>
${body}
</main>
</body>
</html>`;
}

/**
 * The Content-Security-Policy of every page here: inline style and forms, nothing else. Browsers
 * check form-action on each redirect after a submission too, and signing in or out ends with one
 * to the console, so its origins are allowed form targets besides our own.
 */
export function pageCsp(consoleOrigins: Iterable<string>): string {
  const targets = ["'self'", ...consoleOrigins].join(' ');
  return `default-src 'none'; style-src 'unsafe-inline'; form-action ${targets}; frame-ancestors 'none'; base-uri 'none'`;
}

export type LoginCandidate = {
  userId: string;
  /** Deactivated on the participant: the provider still signs them in, the participant refuses. */
  isDeactivated: boolean;
  /** A subject the provider knows but the participant has no user for. */
  notOnboarded: boolean;
};

export type LoginPageInput = {
  issuer: string;
  /**
   * The Canton IdP this issuer serves: '' is the participant's default IdP; undefined while no
   * IdP configuration on the participant names this issuer.
   */
  identityProviderId: string | undefined;
  clientId: string;
  candidates: readonly LoginCandidate[];
  /** Absolute-path URLs the forms post to. */
  loginAction: string;
  abortAction: string;
};

export function loginPage(input: LoginPageInput): string {
  const idp =
    input.identityProviderId === undefined
      ? 'none yet: no IdP configuration on the participant names this issuer'
      : input.identityProviderId === ''
        ? 'the participant’s default IdP'
        : `IdP ${input.identityProviderId}`;
  const rows = input.candidates
    .map((candidate) => {
      const tags = [
        candidate.isDeactivated ? 'deactivated on the participant' : undefined,
        candidate.notOnboarded ? 'not onboarded on the participant' : undefined,
      ]
        .filter((tag) => tag !== undefined)
        .map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`)
        .join('');
      const id = escapeHtml(candidate.userId);
      return `<li><span><code>${id}</code>${tags}</span>
<form method="post" action="${escapeHtml(input.loginAction)}">
<input type="hidden" name="sub" value="${id}">
<button type="submit">Sign in as ${id}</button>
</form></li>`;
    })
    .join('\n');
  return page(
    'Sign in — sandbox OpenID provider',
    `<h1>Sign in</h1>
<dl>
<dt>Issuer</dt><dd>${escapeHtml(input.issuer)}</dd>
<dt>Identity provider</dt><dd>${escapeHtml(idp)}</dd>
<dt>Client</dt><dd>${escapeHtml(input.clientId)}</dd>
</dl>
<p class="note">No password: choose whom to be. The list is the sandbox’s users of this IdP, read
live; the participant decides what each may do.</p>
<ul aria-label="Users">
${rows}
</ul>
<form method="post" action="${escapeHtml(input.abortAction)}">
<button type="submit" class="secondary">Cancel</button>
</form>`,
  );
}

/** oidc-provider's end-session confirmation; `form` is its own hidden form (xsrf token included). */
export function logoutPage(issuer: string, form: string): string {
  return page(
    'Sign out — sandbox OpenID provider',
    `<h1>Sign out</h1>
<p>Sign out of the sandbox provider at <code>${escapeHtml(issuer)}</code>?</p>
${form}
<p><button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out of the sandbox provider</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button></p>`,
  );
}

export function loggedOutPage(issuer: string): string {
  return page(
    'Signed out — sandbox OpenID provider',
    `<h1>Signed out</h1><p>You are signed out of the sandbox provider at <code>${escapeHtml(issuer)}</code>.</p>`,
  );
}

export function errorPage(details: Record<string, string>): string {
  const rows = Object.entries(details)
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return page('Error — sandbox OpenID provider', `<h1>Something went wrong</h1><dl>${rows}</dl>`);
}
