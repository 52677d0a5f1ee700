import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The Canton team's own artifacts (their OpenAPI/AsyncAPI documents and DARs) are never part of
 * the repo. A folder holding them may be named by `CANTON_REFERENCE_DIR` (laid out like the
 * workspace's reference folder: `spec/openapi.yaml`, `spec/asyncapi.yaml`, `fixtures/dars/*.dar`);
 * the reference suite (`*.reference.test.ts`) runs only then, and is reported as skipped otherwise.
 */
export const REFERENCE_ENV = 'CANTON_REFERENCE_DIR';

/** The reference folder, or undefined when none is configured. A configured but missing one fails loudly. */
export function referenceDir(): string | undefined {
  const configured = process.env[REFERENCE_ENV];
  if (configured === undefined || configured === '') return undefined;
  const dir = path.resolve(configured);
  if (!existsSync(dir)) {
    throw new Error(`${REFERENCE_ENV} is set to ${configured}, which does not exist`);
  }
  return dir;
}

/** A path inside the reference folder; throws when none is configured (guard with `referenceDir()`). */
export function referencePath(...segments: string[]): string {
  const dir = referenceDir();
  if (dir === undefined) throw new Error(`${REFERENCE_ENV} is not set`);
  return path.join(dir, ...segments);
}

export const SKIP_REASON = `${REFERENCE_ENV} is not set: the checks against Canton's own DARs and OpenAPI document need a folder holding them (.ci/run uses ../shared when it exists)`;
