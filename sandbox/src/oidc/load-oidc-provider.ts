import type * as OidcProviderModule from 'oidc-provider';

const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime';

let loading: Promise<typeof OidcProviderModule> | undefined;

/**
 * Loads oidc-provider on first use, so a sandbox without `--auth oidc` never pays for it.
 *
 * On Node 20 the package prints "Unsupported runtime. Use Node.js v22.x LTS" while it is being
 * imported: it wants an LTS named Jod or later, although it runs (and is tested here) on Node 20,
 * the project's runtime. That one line would read like a fault on every `npm start`, so it alone is
 * dropped, and only for the duration of this import; every other warning passes through.
 */
export function loadOidcProvider(): Promise<typeof OidcProviderModule> {
  loading ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      const [first] = args;
      if (typeof first === 'string' && first.includes(UNSUPPORTED_RUNTIME)) return;
      warn.apply(console, args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
}
