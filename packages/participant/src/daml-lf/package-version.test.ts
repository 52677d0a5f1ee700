import { describe, expect, it } from 'vitest';
import { comparePackageVersions } from './package-version';

describe('comparePackageVersions', () => {
  it('orders versions numerically, segment by segment, a prefix first', () => {
    const sorted = ['10.0.0', '1.10.0', '1.9.0', '1.0', '2.0.0', '1.0.0', '1.2'].sort(
      comparePackageVersions,
    );
    expect(sorted).toEqual(['1.0', '1.0.0', '1.2', '1.9.0', '1.10.0', '2.0.0', '10.0.0']);
    expect(comparePackageVersions('1.0.0', '1.0.0')).toBe(0);
  });

  it('falls back to the text of a segment that is not a number', () => {
    expect(comparePackageVersions('1.a', '1.b')).toBe(-1);
    expect(comparePackageVersions('1.b', '1.a')).toBe(1);
  });
});
