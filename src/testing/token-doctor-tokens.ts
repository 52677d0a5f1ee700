/**
 * Tokens and context for the token doctor's tests (src/features/token-doctor/diagnosis/): each
 * verdict family's test builds its tokens here and reads its verdict from the whole diagnosis.
 */
import type {
  DoctorContext,
  IdentityProviderInfo,
  SignInProviderInfo,
} from '@/features/token-doctor/diagnosis/doctor-context';
import { diagnoseToken } from '@/features/token-doctor/diagnosis/diagnose-token';
import type { Verdict, VerdictId } from '@/features/token-doctor/diagnosis/verdict';

export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
export const NOW_S = NOW / 1000;
export const PARTICIPANT = 'participant1::1220abcd';
export const AUDIENCE = `https://daml.com/jwt/aud/participant/${PARTICIPANT}`;

export const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned-looking JWT: the doctor never verifies, so any signature text will do. */
export function jwt(
  payload: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT', kid: 'key-1' },
  signature = 'c2lnbmF0dXJl',
): string {
  return `${segment(header)}.${segment(payload)}.${signature}`;
}

export const goodPayload = (extra: Record<string, unknown> = {}) => ({
  sub: 'alice',
  aud: AUDIENCE,
  exp: NOW_S + 3600,
  iat: NOW_S - 60,
  ...extra,
});

export const acmeIdp: IdentityProviderInfo = {
  identityProviderId: 'acme',
  issuer: 'https://idp.acme.example',
  isDeactivated: false,
  audience: '',
};

export const baseContext: DoctorContext = { now: NOW, participantId: PARTICIPANT };

export function verdictOf(
  token: string,
  id: VerdictId,
  context: Partial<DoctorContext> = {},
): Verdict {
  const found = diagnoseToken(token, { ...baseContext, ...context }).find((v) => v.id === id);
  if (!found) throw new Error(`No ${id} verdict`);
  return asRead(found);
}

/**
 * The verdict as a reader sees it: without the invisible isolates around quoted values (the
 * untrusted-input tests check those are there), so the wording can be matched as written.
 */
function asRead(verdict: Verdict): Verdict {
  const plain = (text: string) => text.replace(/[\u2068\u2069]/gu, '');
  return {
    ...verdict,
    finding: plain(verdict.finding),
    ...(verdict.fix === undefined ? {} : { fix: plain(verdict.fix) }),
  };
}

export function acmeProvider(): SignInProviderInfo {
  return { id: 'acme', name: 'Acme SSO', issuer: acmeIdp.issuer, identityProviderId: 'acme' };
}
