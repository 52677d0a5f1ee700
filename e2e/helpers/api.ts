import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';

/** A fresh id per call, so tests never collide on one shared sandbox (style guide §B10). */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export type SeedRight =
  | { kind: 'CanActAs' | 'CanReadAs' | 'CanExecuteAs'; party: string }
  | {
      kind:
        | 'CanActAsAnyParty'
        | 'CanReadAsAnyParty'
        | 'CanExecuteAsAnyParty'
        | 'ParticipantAdmin'
        | 'IdentityProviderAdmin';
    };

function wireRight(right: SeedRight) {
  return 'party' in right
    ? { kind: { [right.kind]: { value: { party: right.party } } } }
    : { kind: { [right.kind]: { value: {} } } };
}

/**
 * Seeds through the participant's real endpoints, as an administrator would (Keycloak's admin
 * client idea). `token` is needed against the jwt-mode console.
 */
export function seedApi(request: APIRequestContext, token?: string) {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const post = async (path: string, data: unknown) => {
    const response = await request.post(path, { data, headers });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  return {
    async allocateParty(hint: string, identityProviderId = ''): Promise<string> {
      const body = await post('/v2/parties', {
        partyIdHint: hint,
        identityProviderId,
        synchronizerId: '',
        userId: '',
      });
      return (body.partyDetails as { party: string }).party;
    },
    async createUser(
      id: string,
      {
        rights = [],
        identityProviderId = '',
        primaryParty,
      }: { rights?: SeedRight[]; identityProviderId?: string; primaryParty?: string } = {},
    ): Promise<void> {
      await post('/v2/users', {
        user: {
          id,
          identityProviderId,
          isDeactivated: false,
          ...(primaryParty ? { primaryParty } : {}),
        },
        rights: rights.map(wireRight),
      });
    },
    async createIdentityProvider(id: string): Promise<void> {
      await post('/v2/idps', {
        identityProviderConfig: {
          identityProviderId: id,
          issuer: `https://${id}.example`,
          jwksUrl: `https://${id}.example/jwks.json`,
          audience: '',
          isDeactivated: false,
        },
      });
    },
    async updatePrimaryParty(id: string, primaryParty: string): Promise<void> {
      const response = await request.patch(`/v2/users/${encodeURIComponent(id)}`, {
        data: { user: { id, primaryParty }, updateMask: { paths: ['primary_party'] } },
        headers,
      });
      expect(response.status(), await response.text()).toBe(200);
    },
  };
}

/** Sandbox only: a token for any user, through the sandbox's own control endpoint. */
export async function mintToken(request: APIRequestContext, userId: string): Promise<string> {
  const response = await request.post('/__sandbox/tokens', { data: { userId } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}
