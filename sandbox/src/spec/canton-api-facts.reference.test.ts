import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { referenceDir } from '@ledger-console/participant/testing/reference-dir';
import { API_FACTS_FILE } from './api-facts';
import { deriveFromReferenceDir, formatApiFacts } from './derive-api-facts';

const STALE =
  'sandbox/src/spec/canton-api-facts.json is not derived from these documents: run `npm run spec:derive`';

describe.skipIf(!referenceDir())("the committed API facts match Canton's documents", () => {
  it('derives the same file from $CANTON_REFERENCE_DIR/spec', () => {
    const dir = referenceDir() ?? '';
    const derived = formatApiFacts(deriveFromReferenceDir(dir));
    const committed = readFileSync(API_FACTS_FILE, 'utf8');
    // The sources first: a new Canton release shows as its version and hashes, not a long diff.
    expect((JSON.parse(committed) as { source: unknown }).source, STALE).toEqual(
      (JSON.parse(derived) as { source: unknown }).source,
    );
    expect(committed, STALE).toBe(derived);
  });
});
