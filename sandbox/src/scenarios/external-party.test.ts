import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createSandbox } from '../create-sandbox';
import { cantonHash } from '../ledger/external/keys';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { checkSchema } from '../testing/spec-conformance';
import { hs256Token, TEST_SECRET } from '../testing/tokens';
import { onboardExternalParty } from './external-party';
import { createLedgerClient, LedgerRequestError } from './ledger-client';

const fingerprintOf = (privateKey: ReturnType<typeof generateKeyPairSync>['privateKey']) => {
  const { x = '' } = createPublicKey(privateKey).export({ format: 'jwk' });
  return cantonHash(12, Buffer.from(x, 'base64url')).toString('hex');
};

describe('onboardExternalParty', () => {
  it('onboards a party with a Node Ed25519 key, in process', async () => {
    const sandbox = createSandbox();
    const client = createLedgerClient({ transport: (request) => sandbox.fetch(request) });
    await client.request('POST', '/v2/users', { body: { user: { id: 'wallet' } } });
    const { privateKey } = generateKeyPairSync('ed25519');
    const party = await onboardExternalParty(client, 'Alice', privateKey, { userId: 'wallet' });
    expect(party).toEqual({
      partyId: `Alice::${fingerprintOf(privateKey)}`,
      fingerprint: fingerprintOf(privateKey),
      synchronizerId: sandbox.state.synchronizerId,
    });
    expect(sandbox.state.parties.get(party.partyId)?.isLocal).toBe(true);
    expect(sandbox.state.parties.signingKeys(party.partyId)?.keys[0]?.fingerprint).toBe(
      party.fingerprint,
    );
    expect(sandbox.state.users.rights('wallet')).toEqual([
      { kind: 'CanActAs', party: party.partyId },
    ]);
    // A refusal throws the participant's answer; a key of another kind is not taken.
    const again = await onboardExternalParty(client, 'Alice', privateKey).catch(
      (error: unknown) => error,
    );
    expect(again).toBeInstanceOf(LedgerRequestError);
    expect((again as LedgerRequestError).body).toContain('already exists on synchronizer');
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    await expect(onboardExternalParty(client, 'Bob', p256)).rejects.toThrow('Ed25519');
    sandbox.close();
  });
  it('hosts the party on other confirming and observing participants too, one event each', async () => {
    const sandbox = createSandbox();
    const client = createLedgerClient({ transport: (request) => sandbox.fetch(request) });
    const confirmer = `p2::1220${'b'.repeat(64)}`;
    const observer = `p3::1220${'c'.repeat(64)}`;
    const { partyId } = await onboardExternalParty(
      client,
      'Shared',
      generateKeyPairSync('ed25519').privateKey,
      {
        otherConfirmingParticipantUids: [confirmer],
        observingParticipantUids: [observer],
        confirmationThreshold: 2,
      },
    );
    const updates = await client.request<any[]>('POST', '/v2/updates', {
      body: {
        beginExclusive: 0,
        updateFormat: {
          includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [partyId] } },
        },
      },
    });
    expect(
      updates.map(({ update }) =>
        update.TopologyTransaction.value.events.map(
          ({ event }: any) =>
            `${event.ParticipantAuthorizationAdded.value.participantId} ${event.ParticipantAuthorizationAdded.value.participantPermission}`,
        ),
      ),
    ).toEqual([
      [
        `${sandbox.state.participantId} PARTICIPANT_PERMISSION_CONFIRMATION`,
        `${confirmer} PARTICIPANT_PERMISSION_CONFIRMATION`,
        `${observer} PARTICIPANT_PERMISSION_OBSERVATION`,
      ],
    ]);
    sandbox.close();
  });
});

describe('onboardExternalParty over HTTP, in jwt mode', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandbox({
      port: 0,
      quiet: true,
      seed: 'none',
      auth: 'jwt',
      jwtSecret: TEST_SECRET,
    });
  });
  afterAll(async () => {
    await running.close();
  });

  it('hosts the party for its user, whose update websocket shows the CONFIRMATION hosting', async () => {
    const token = await hs256Token('participant_admin');
    const client = createLedgerClient({ transport: fetch, baseUrl: running.url, token });
    const { privateKey } = generateKeyPairSync('ed25519');
    await client.request('POST', '/v2/users', { body: { user: { id: 'carol' } } });
    const { partyId } = await onboardExternalParty(client, 'Carol', privateKey, {
      userId: 'carol',
    });
    // The user the party was onboarded for reads it with the right it was given.
    const carol = await hs256Token('carol');
    const messages = await new Promise<any[]>((resolve, reject) => {
      const ws = new WebSocket(`${running.url.replace('http', 'ws')}/v2/updates`, [
        `jwt.token.${carol}`,
        'daml.ws.auth',
      ]);
      const received: any[] = [];
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`no topology event: ${JSON.stringify(received)}`));
      }, 5000);
      ws.on('open', () => {
        ws.send(
          JSON.stringify({
            beginExclusive: 0,
            endInclusive: 1,
            updateFormat: {
              includeTopologyEvents: {
                includeParticipantAuthorizationEvents: { parties: [partyId] },
              },
            },
          }),
        );
      });
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8'));
        expect(checkSchema('JsGetUpdatesResponse', message), JSON.stringify(message)).toEqual([]);
        received.push(message);
      });
      ws.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
      ws.on('error', reject);
    });
    expect(messages.map((message) => message.update.TopologyTransaction.value.events)).toEqual([
      [
        {
          event: {
            ParticipantAuthorizationAdded: {
              value: {
                partyId,
                participantId: expect.stringMatching(/^sandbox::1220/),
                participantPermission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
              },
            },
          },
        },
      ],
    ]);
  });
});
