import { z } from 'zod';
import { normalizePastedToken } from './diagnosis/inspect-token';

// No size limit here on purpose: an oversized paste gets the doctor's own verdict, which says why.
export const tokenDoctorSchema = z.object({
  token: z
    .string()
    .transform(normalizePastedToken)
    .pipe(z.string().min(1, 'Paste a token, or use your current one')),
});

export type TokenDoctorInput = z.input<typeof tokenDoctorSchema>;
export type TokenDoctorValues = z.output<typeof tokenDoctorSchema>;

export const emptyTokenDoctorValues: TokenDoctorInput = { token: '' };
