/** Whether `value` is an absolute http: or https: URL (what a browser may open or fetch). */
export function isWebUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
