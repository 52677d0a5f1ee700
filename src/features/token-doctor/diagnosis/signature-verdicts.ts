/** How the token is signed: the algorithm (alg) and the key id (kid), judged from its header. */
import type { IdentityProviderInfo } from './doctor-context';
import { verdictMaker, type Verdict } from './verdict';
import { quote } from './wording';

export function algorithmVerdict(
  header: Record<string, unknown>,
  matchedConfig: IdentityProviderInfo | undefined,
): Verdict {
  const verdict = verdictMaker('algorithm', 'Signing algorithm (alg)');
  const alg = header.alg;
  if (typeof alg !== 'string' || alg === '') {
    return verdict(
      'problem',
      'The header names no alg, so no auth service can verify the token (401).',
      'Use a token from an identity provider that signs with RS256 (or ES256/ES512).',
    );
  }
  if (alg.toLowerCase() === 'none') {
    return verdict(
      'problem',
      'alg is "none": an unsigned token, which every Canton auth service refuses (401).',
      'Use a token signed by your identity provider (RS256 for JWKS and IdP configurations).',
    );
  }
  if (alg === 'HS256') {
    return matchedConfig
      ? verdict(
          'problem',
          `HS256 (a shared secret), but its issuer is IdP configuration ${quote(matchedConfig.identityProviderId)}, which verifies RS256 signatures with keys from its JWKS URL (401).`,
          'Sign the token with the RS256 key the IdP publishes in its JWKS, or drop the iss claim for the shared-secret service.',
        )
      : verdict(
          'warning',
          'HS256 (a shared secret): only an unsafe-jwt-hmac-256 auth service accepts it, which is meant for development and tests; JWKS services and IdP configurations refuse it.',
          'Fine against a development participant configured with that secret; in production, use an RS256 token from your identity provider.',
        );
  }
  if (alg === 'RS256') {
    return verdict(
      'ok',
      'RS256: accepted by JWKS services (jwt-jwks), IdP configurations and jwt-rs-256-crt.',
    );
  }
  if (alg === 'ES256' || alg === 'ES512') {
    return matchedConfig
      ? verdict(
          'warning',
          `${alg}: accepted by a jwt-${alg.toLowerCase()}-crt auth service, but the token's issuer is IdP configuration ${quote(matchedConfig.identityProviderId)}, whose JWKS verification expects RS256.`,
          'Configure the identity provider to sign access tokens with RS256.',
        )
      : verdict(
          'ok',
          `${alg}: accepted by an auth service configured with jwt-${alg.toLowerCase()}-crt and the signer's certificate.`,
        );
  }
  return verdict(
    'problem',
    `${quote(alg)}: Canton's auth services verify RS256, ES256, ES512 and (unsafe) HS256 only, so the participant answers 401.`,
    'Configure the identity provider to sign access tokens for this client with RS256.',
  );
}

export function headerVerdict(header: Record<string, unknown>): Verdict {
  const { typ, kid, alg } = header;
  const facts: string[] = [];
  if (typeof typ === 'string') facts.push(`typ is ${quote(typ)}`);
  else facts.push('no typ (Canton does not need one)');
  const needsKid = typeof alg === 'string' && /^(RS|ES|PS)/.test(alg);
  if (typeof kid === 'string' && kid !== '') {
    facts.push(`kid is ${quote(kid)}`);
    return {
      id: 'header',
      title: 'Key id and type (kid, typ)',
      status: 'ok',
      finding: `In the header: ${facts.join(', ')}.`,
    };
  }
  if (!needsKid) {
    facts.push('no kid (not needed for this algorithm)');
    return {
      id: 'header',
      title: 'Key id and type (kid, typ)',
      status: 'ok',
      finding: `In the header: ${facts.join(', ')}.`,
    };
  }
  return {
    id: 'header',
    title: 'Key id and type (kid, typ)',
    status: 'warning',
    finding: `In the header: ${facts.join(', ')}, and no kid: JWKS services and IdP configurations pick the verification key by kid, so they refuse it; only a certificate service (jwt-rs-256-crt and the like) can verify it.`,
    fix: 'Configure the identity provider to put the signing key id (kid) in the token header.',
  };
}
