/** The first verdicts, size and structure: whether there is a JWT to judge at all. */
import { claimsOf, decodeJwtSegment, type TokenClaims } from '@/lib/access/token-claims';
import { verdictMaker, type Verdict } from './verdict';
import { kib } from './wording';

/** Larger input is not decoded: no IdP issues such tokens, and headers that size are refused. */
export const MAX_TOKEN_BYTES = 16 * 1024;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export type InspectedToken =
  | { kind: 'unreadable'; verdicts: Verdict[] }
  | {
      kind: 'jwt';
      header: Record<string, unknown>;
      payload: Record<string, unknown>;
      claims: TokenClaims;
      hasSignature: boolean;
      verdicts: Verdict[];
    };

/** A pasted token often carries a `Bearer ` prefix or a terminal's line breaks. */
export function normalizePastedToken(text: string): string {
  return text.replace(/^\s*Bearer\s+/i, '').replace(/\s+/g, '');
}

/** Size and structure: the token decoded without verifying, or why it cannot be. */
export function inspectToken(token: string): InspectedToken {
  const bytes = new TextEncoder().encode(token).length;
  if (bytes > MAX_TOKEN_BYTES) {
    return {
      kind: 'unreadable',
      verdicts: [
        {
          id: 'size',
          title: 'Size',
          status: 'problem',
          finding: `The text is ${kib(bytes)}; the doctor reads tokens up to ${kib(MAX_TOKEN_BYTES)}, and no participant takes a header that large.`,
          fix: 'Paste only the token (the three dot-separated parts), not a whole response or log.',
        },
      ],
    };
  }
  const structure = verdictMaker('structure', 'Structure');
  const unreadable = (finding: string, fix: string): InspectedToken => ({
    kind: 'unreadable',
    verdicts: [structure('problem', finding, fix)],
  });
  if (token === '')
    return unreadable('There is no token.', 'Paste a token, or use your current one.');
  const parts = token.split('.');
  if (parts.length === 5) {
    return unreadable(
      'This has five parts: an encrypted token (JWE), which Canton cannot read.',
      'Ask the identity provider for a signed access token (JWS, three parts) instead of an encrypted one.',
    );
  }
  if (parts.length !== 3) {
    return unreadable(
      `A JSON Web Token has three base64url parts separated by dots; this has ${String(parts.length)}.`,
      'Copy the whole access token (not an ID token, an opaque token or a part of one).',
    );
  }
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const badPart = [headerPart, payloadPart, signaturePart].findIndex((p) => !BASE64URL.test(p));
  if (badPart !== -1) {
    return unreadable(
      `The ${['header', 'payload', 'signature'][badPart] ?? ''} holds characters outside base64url (A–Z, a–z, 0–9, - and _).`,
      'Copy the token again as it is, without quotes, padding (=) or other characters around it.',
    );
  }
  const header = jsonObject(headerPart);
  if (header === undefined) {
    return unreadable(
      'The header is not base64url-encoded JSON object.',
      'Copy the whole token again; its first part is damaged.',
    );
  }
  const payload = jsonObject(payloadPart);
  if (payload === undefined) {
    return unreadable(
      'The payload is not a base64url-encoded JSON object.',
      'Copy the whole token again; its middle part is damaged.',
    );
  }
  const hasSignature = signaturePart !== '';
  return {
    kind: 'jwt',
    header,
    payload,
    claims: claimsOf(payload),
    hasSignature,
    verdicts: [
      hasSignature
        ? structure('ok', 'Three base64url parts; the header and payload are JSON objects.')
        : structure(
            'problem',
            'The header and payload are JSON, but the signature part is empty: the token is unsigned.',
            'Use a token signed by your identity provider; the participant refuses unsigned tokens (401).',
          ),
    ],
  };
}

function jsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value = decodeJwtSegment(segment);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
