import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '@/testing/memory-storage';
import {
  createSandbox,
  hs256Token,
  routeFetchToParticipants,
  TEST_SECRET,
} from '@/testing/sandbox-network';
import { readAccessToken, writeAccessToken } from './access-token';
import { participantClient } from './participants';

/** The sign-in storage as a page of `pathname` sees it: a fresh load of the modules, as a page is. */
async function pageAt(pathname: string) {
  vi.resetModules();
  vi.stubGlobal('location', new URL(`http://localhost:3000${pathname}`));
  const tokens = await import('./access-token');
  const participants = await import('./participants');
  return { ...tokens, ...participants };
}

function jwtFleet() {
  return ['participant1', 'participant2'].map((name) => ({
    name,
    sandbox: createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET, participantName: name }),
  }));
}

describe('sign-in per participant', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', new MemoryStorage());
    vi.stubGlobal('localStorage', new MemoryStorage());
  });
  afterEach(() => {
    vi.resetModules();
  });

  it('sends a participant only the token signed in on its own pages', async () => {
    const network = routeFetchToParticipants(jwtFleet());
    const sent: { path: string; authorization: string | null }[] = [];
    network.intercept((request, forward) => {
      sent.push({
        path: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
      });
      return forward(request);
    });
    const participant2Token = await hs256Token('participant_admin');
    const participant2Page = await pageAt('/p/participant2/users');
    participant2Page.writeAccessToken(participant2Token);
    // The default participant's (unprefixed) pages are not signed in by that.
    expect(readAccessToken()).toBeUndefined();

    const onTwo = await participant2Page.participantClient('participant2').GET('/v2/users');
    expect(onTwo.response.status).toBe(200);
    const onOne = await participantClient('participant1').GET('/v2/users');
    expect(onOne.response.status).toBe(401);
    expect(sent).toEqual([
      { path: '/participants/participant2/v2/users', authorization: `Bearer ${participant2Token}` },
      { path: '/participants/participant1/v2/users', authorization: null },
    ]);
  });

  it('signing in or out on one participant leaves the others signed in', async () => {
    const participant2Page = await pageAt('/p/participant2/');
    participant2Page.writeAccessToken('eyJ.two.sig');
    const participant3Page = await pageAt('/p/participant3/');
    participant3Page.writeAccessToken('eyJ.three.sig', { remember: true });
    writeAccessToken('eyJ.default.sig');

    expect(participant2Page.readAccessToken()).toBe('eyJ.two.sig');
    expect(participant3Page.readAccessToken()).toBe('eyJ.three.sig');
    expect(readAccessToken()).toBe('eyJ.default.sig');

    participant3Page.writeAccessToken(undefined);
    expect(participant3Page.readAccessToken()).toBeUndefined();
    expect(participant2Page.readAccessToken()).toBe('eyJ.two.sig');
    expect(readAccessToken()).toBe('eyJ.default.sig');
    // The default participant's token stays under the key a single-participant console used.
    expect(sessionStorage.getItem('ledger-console.access-token')).toBe('eyJ.default.sig');
  });
});
