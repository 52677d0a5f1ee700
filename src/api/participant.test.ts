import { SignJWT } from 'jose';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { MemoryStorage } from '@/testing/memory-storage';
import { createSandbox, routeFetchToSandbox } from '@/testing/sandbox-network';
import { writeAccessToken } from './access-token';
import { getLiveness, getParticipantId, getReadiness, getVersion } from './participant';

const JWT_SECRET = 'participant-test-secret';

function userToken(userId: string) {
  return new SignJWT({ scope: 'daml_ledger_api' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

beforeEach(() => {
  // Where the browser keeps the access token; unstubbed after each test.
  vi.stubGlobal('sessionStorage', new MemoryStorage());
});

describe('participant requests', () => {
  it('read the version and the participant id', async () => {
    const { sandbox } = routeFetchToSandbox();

    expect((await getVersion()).version).toBe('3.5.7');
    expect(await getParticipantId()).toBe(sandbox.state.participantId);
  });

  it('send the stored access token as a bearer token', async () => {
    const { sandbox } = routeFetchToSandbox({
      sandbox: createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET }),
    });

    const anonymous = await getParticipantId().catch((error: unknown) => error);
    expect(anonymous).toBeInstanceOf(ApiError);
    expect((anonymous as ApiError).status).toBe(401);

    writeAccessToken(await userToken('participant_admin'));
    expect(await getParticipantId()).toBe(sandbox.state.participantId);
  });

  it('report a live and ready participant, with the readiness text', async () => {
    routeFetchToSandbox();

    expect(await getLiveness()).toEqual({ isHealthy: true, detail: '' });
    expect(await getReadiness()).toEqual({
      isHealthy: true,
      detail: '[+] ledger ok (SERVING)\nreadyz check passed',
    });
  });

  it('report a probe that answers anything but 200 as unhealthy, with the reason', async () => {
    routeFetchToSandbox({
      // What `npm start` answers when the participant behind it is down (server/src/ledger-proxy.ts).
      intercept: () =>
        Promise.resolve(
          Response.json(
            {
              code: 'LEDGER_UNREACHABLE',
              cause: 'could not reach the participant',
              errorCategory: 1,
            },
            { status: 502 },
          ),
        ),
    });

    const liveness = await getLiveness();
    expect(liveness).toMatchObject({
      isHealthy: false,
      detail: 'could not reach the participant',
    });
    // The proxy's own answer: the participant is unreachable, not merely unhealthy.
    expect(liveness.unreachable?.code).toBe('LEDGER_UNREACHABLE');
    expect((await getReadiness()).isHealthy).toBe(false);
  });

  it('turn a fetch that throws into an ApiError with status 0', async () => {
    routeFetchToSandbox({ intercept: () => Promise.reject(new TypeError('fetch failed')) });

    const error = await getVersion().catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_UNREACHABLE' });
    await expect(getLiveness()).rejects.toMatchObject({ status: 0 });
  });

  it('turn an error response into an ApiError with the body of the API', async () => {
    routeFetchToSandbox({ sandbox: createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET }) });
    writeAccessToken(await userToken('nobody-of-that-name'));

    const error = await getParticipantId().catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBeGreaterThanOrEqual(400);
    expect((error as ApiError).body.cause).not.toBe('');
  });
});
