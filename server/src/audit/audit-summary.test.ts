import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BodyCapture, MAX_PARSED_BYTES, MAX_SUMMARY_CHARS, summarizeBody } from './audit-summary';

function summary(body: unknown, kind: 'json' | 'dar' = 'json'): string {
  const capture = new BodyCapture(kind);
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  // In pieces, as a body streams.
  for (let at = 0; at < bytes.length; at += 7000) capture.add(bytes.subarray(at, at + 7000));
  return summarizeBody(capture).summary;
}

describe('summarizeBody', () => {
  it('keeps what a call was about: ids, hints, rights, flags', () => {
    expect(
      summary({
        userId: 'alice',
        rights: [{ kind: { CanActAs: { value: { party: 'alice::1220' } } } }],
        identityProviderId: '',
      }),
    ).toBe('{"userId":"alice","rights":[{"kind":{"CanActAs":{…}}}],"identityProviderId":""}');
    expect(summary({ partyIdHint: 'bank', isDeactivated: false, n: 3, none: null })).toBe(
      '{"partyIdHint":"bank","isDeactivated":false,"n":3,"none":null}',
    );
  });

  it('replaces tokens, secrets, keys, signatures and prepared or topology transactions by their size', () => {
    const text = summary({
      token: 'abc',
      accessToken: 'x'.repeat(10),
      clientSecret: 'hunter2',
      publicKey: { format: 'DER', keyData: 'AAAA', keySpec: 'ED25519' },
      preparedTransaction: 'P'.repeat(500),
      partySignatures: { signatures: [{ party: 'a', signatures: [{ signature: 'S' }] }] },
      nested: { deeper: { signature: 'SIG-VALUE' } },
      note: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln',
    });
    for (const secret of ['abc', 'hunter2', 'AAAA', 'PPPP', 'SIG-VALUE', 'eyJ', '"S"']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('"token":"<redacted, 3 chars>"');
    expect(text).toContain('"preparedTransaction":"<redacted, 500 chars>"');
    expect(text).toContain('"signature":"<redacted, 9 chars>"');
    expect(text).toContain('"note":"<redacted, 41 chars>"');
  });

  it('is bounded however large or deep the body is', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 500; i += 1) deep = { level: deep };
    const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${String(i)}`, i]));
    const long = { text: 'z'.repeat(10_000), list: Array.from({ length: 1000 }, (_, i) => i) };
    for (const body of [deep, wide, long, [wide, wide, wide, wide]]) {
      expect(summary(body).length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    }
    expect(summary(deep)).toBe('{"level":{"level":{"level":{"level":{…}}}}}');
    expect(summary(long)).toContain('…(10000 chars)');
    expect(summary(long)).toContain('…+990');
  });

  it('describes bodies it does not parse by their size', () => {
    expect(summary('')).toBe('');
    expect(summary('not json')).toBe('body of 8 B, not JSON');
    expect(summary('x'.repeat(MAX_PARSED_BYTES + 1))).toBe('body of 1.0 MiB, not summarised');
  });

  it('summarises a DAR by its size and a SHA-256 prefix', () => {
    const dar = randomBytes(100_000);
    const sha = createHash('sha256').update(dar).digest('hex');
    expect(summary(dar, 'dar')).toBe(`DAR of 97.7 KiB, sha256 ${sha.slice(0, 16)}…`);
  });
});
