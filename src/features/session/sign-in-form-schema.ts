import { z } from 'zod';
import { decodeToken } from '@/lib/access/token-claims';

export const tokenSignInSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1, 'Paste a bearer token')
    .refine((token) => decodeToken(token).kind === 'jwt', {
      message: 'This is not a JSON Web Token (three base64url parts separated by dots)',
    }),
  remember: z.boolean(),
});

export type TokenSignInValues = z.infer<typeof tokenSignInSchema>;

export const emptyTokenSignInValues: TokenSignInValues = { token: '', remember: false };

/** Pasted tokens often carry a `Bearer ` prefix or line breaks from a terminal. */
export function normalizeToken(token: string): string {
  return token.replace(/^\s*Bearer\s+/i, '').replace(/\s+/g, '');
}
