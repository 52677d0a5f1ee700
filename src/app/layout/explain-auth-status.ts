/** Plain words for a refused request; the participant's own bodies are redacted (code NA). */
export function explainAuthStatus(status: number): string {
  return status === 401
    ? 'The participant did not accept a token from this browser: none was given, or it expired, or it was not signed by an issuer the participant trusts.'
    : 'The participant knows the token but refuses it here: its user lacks the right for this, does not exist in that identity provider, or is deactivated.';
}
