/**
 * Package versions are dot-separated numbers, ordered segment by segment as Daml orders them
 * (`1.0` < `1.0.0` < `1.9` < `1.10`). Pure and small: the console's package lists and search use
 * it without loading the decoder or the upgrade checks.
 */
export function comparePackageVersions(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const l = left[i] ?? '';
    const r = right[i] ?? '';
    const diff = Number(l) - Number(r);
    // Not a number (which Daml forbids): fall back to comparing the text.
    if (Number.isNaN(diff)) {
      if (l !== r) return l < r ? -1 : 1;
    } else if (diff !== 0) {
      return Math.sign(diff);
    }
  }
  return Math.sign(left.length - right.length);
}
