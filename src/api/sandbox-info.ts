import { env } from '@/env';
import { networkError } from '@/lib/errors/api-error';
import { isRecord } from '@/lib/values/is-record';

/** What the embedded sandbox says about itself; a real participant has no such endpoint. */
export type SandboxInfo = { auth: 'none' | 'jwt' | 'oidc'; canMintTokens: boolean };

/**
 * The sandbox's self-description, or null when the participant is not the sandbox. Its own module,
 * without the typed client, because the client's tokenless-request gate (tokenless-access.ts)
 * reads it too.
 */
export async function getSandboxInfo(): Promise<SandboxInfo | null> {
  let response: Response;
  try {
    response = await globalThis.fetch(`${env.API_BASE_URL}/__sandbox/info`);
  } catch (error) {
    throw networkError(error);
  }
  if (!response.ok) return null;
  const body: unknown = await response.json().catch(() => undefined);
  if (!isRecord(body) || body.sandbox !== true) return null;
  return {
    auth: body.auth === 'jwt' || body.auth === 'oidc' ? body.auth : 'none',
    canMintTokens: body.canMintTokens === true,
  };
}
