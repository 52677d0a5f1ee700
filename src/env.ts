/**
 * Build-time settings from `import.meta.env`, checked at module load so a bad setting fails at
 * start-up, not on the first request. Checked by hand rather than with zod: this module is in the
 * first chunk every route loads, and zod would add ~15 KB gzip to it for one field.
 */
function apiBaseUrl(value: unknown): string {
  // Empty = same origin, which is how `npm start` and the Vite dev proxy serve the API. Tests set an
  // absolute origin because Node's Request cannot resolve relative URLs.
  if (value === undefined || value === '') return '';
  if (typeof value === 'string' && /^https?:\/\/[^/\s]+(\/\S*)?$/.test(value)) {
    return value.replace(/\/+$/, '');
  }
  throw new Error(
    `VITE_API_BASE_URL must be empty or an http(s) URL, got ${JSON.stringify(value)}`,
  );
}

export const env = {
  API_BASE_URL: apiBaseUrl(import.meta.env.VITE_API_BASE_URL),
} as const;
