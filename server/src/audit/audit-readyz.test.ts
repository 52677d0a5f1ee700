import { describe, expect, it } from 'vitest';
import { checksOf, readyzText } from './audit-readyz';

describe('readyz with a failing audit log', () => {
  it('keeps the participant’s checks and adds the console’s, in the participant’s format', () => {
    const checks = checksOf('[+] ledger ok (SERVING)\nreadyz check passed\n');
    expect(checks).toEqual(['[+] ledger ok (SERVING)']);
    expect(
      readyzText(checks, { ok: false, reason: 'disk I/O error', waiting: 3, dropped: 0 }),
    ).toBe(
      '[+] ledger ok (SERVING)\n[-] console audit log failing: disk I/O error (3 entries waiting to be written)\nreadyz check failed\n',
    );
  });

  it('reads no more than a readiness answer from the participant', () => {
    const noisy = `<html>\n${'[+] x ok\n'.repeat(100)}${'[-] '.padEnd(5000, 'y')}\n`;
    const checks = checksOf(noisy);
    expect(checks).toHaveLength(20);
    expect(checks.every((line) => line.length <= 300)).toBe(true);
  });
});
