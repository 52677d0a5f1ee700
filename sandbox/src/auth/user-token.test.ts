import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/test-client';
import { mintUserToken } from './user-token';

describe('mintUserToken', () => {
  it('makes tokens the jwt-mode sandbox accepts for that user, and only with its secret', async () => {
    const t = createTestSandbox({ auth: 'jwt', jwtSecret: 'the-secret' });
    const token = await mintUserToken('the-secret', 'participant_admin');
    expect((await t.get('/v2/authenticated-user', { token })).json.user.id).toBe(
      'participant_admin',
    );
    const foreign = await mintUserToken('another-secret', 'participant_admin');
    expect((await t.get('/v2/authenticated-user', { token: foreign })).status).toBe(401);
    const expired = await mintUserToken('the-secret', 'participant_admin', '-1m');
    expect((await t.get('/v2/authenticated-user', { token: expired })).status).toBe(401);
    t.close();
  });
});
