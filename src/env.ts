import { z } from 'zod';

const envSchema = z.object({
  // Empty = same origin, which is how `npm start` and the Vite dev proxy serve the API. Tests set an
  // absolute origin because Node's Request cannot resolve relative URLs.
  VITE_API_BASE_URL: z
    .union([z.literal(''), z.url({ protocol: /^https?$/ })])
    .default('')
    .transform((url) => url.replace(/\/+$/, '')),
});

// Parse at module load so a bad build-time setting fails at start-up, not on the first request.
const parsed = envSchema.parse(import.meta.env);

export const env = {
  API_BASE_URL: parsed.VITE_API_BASE_URL,
} as const;
