/**
 * zod compiles fast validators with `new Function` when the page allows it, and probes by calling
 * it once. Our Content-Security-Policy forbids eval (ADR 010), so the probe would only ever fail,
 * and each failure is a CSP violation report. Set once, before any schema runs.
 *
 * Written into the global object zod keeps its configuration in (what `config()` of
 * `zod/v4/core` reads and writes) rather than through `config()`: importing zod for one flag put
 * 3.2 KB (gzip) of it on every first route, whose pages have no form. zod-config.test.ts holds
 * zod to this, so an upgrade that moves the global fails the suite instead of the CSP.
 */
export function configureZod(): void {
  const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  // Mutated, not replaced: a zod already loaded holds on to this very object.
  (holder.__zod_globalConfig ??= {}).jitless = true;
}
