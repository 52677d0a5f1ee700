import { config } from 'zod/v4/core';

/**
 * zod compiles fast validators with `new Function` when the page allows it, and probes by calling
 * it once. Our Content-Security-Policy forbids eval (ADR 010), so the probe would only ever fail,
 * and each failure is a CSP violation report. Set once, before any schema runs.
 */
export function configureZod(): void {
  config({ jitless: true });
}
