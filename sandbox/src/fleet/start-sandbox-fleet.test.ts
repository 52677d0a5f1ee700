import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseSandboxArgs } from '../cli-options';
import { DEMO_PARTY_HINTS } from '../seed/demo-seed';
import { create, iou } from '../testing/json-commands';
import { IOU, transactionsOf } from '../testing/ledger-history';
import { checkSchema } from '../testing/spec-conformance';
import { FLEET_OIDC_REFUSAL, startSandboxFleet } from './start-sandbox-fleet';

const json = async (url: string) => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return await response.json();
};

describe('startSandboxFleet', () => {
  it('serves each participant on its own port, the demo seed on participant1 only', async () => {
    const fleet = await startSandboxFleet({ participants: 2, port: 0, seed: 'demo', quiet: true });
    try {
      const [first, second] = fleet.participants;
      if (!first || !second) throw new Error('two participants');
      expect([first.name, second.name]).toEqual(['participant1', 'participant2']);
      expect(first.url).not.toBe(second.url);
      expect((await json(`${second.url}/v2/parties/participant-id`)).participantId).toBe(
        second.participantId,
      );
      expect(first.seeded).toBe(true);
      expect(second.seeded).toBe(false);
      // participant2 holds no users of the seed, knows its parties (none local) and sees what
      // its parties witness: it hosts none, so nothing.
      const users = (await json(`${second.url}/v2/users`)).users as { id: string }[];
      expect(users.map((user) => user.id)).toEqual(['participant_admin']);
      const parties = (await json(`${second.url}/v2/parties`)).partyDetails as {
        party: string;
        isLocal: boolean;
      }[];
      expect(parties.length).toBeGreaterThanOrEqual(Object.keys(DEMO_PARTY_HINTS).length);
      expect(parties.every((party) => !party.isLocal)).toBe(true);
      expect((await json(`${second.url}/v2/state/ledger-end`)).offset).toBe(0);
      expect((await json(`${first.url}/v2/state/ledger-end`)).offset).toBeGreaterThan(0);
    } finally {
      await fleet.close();
    }
  });

  it('streams participant2’s projection of a participant1 command over a websocket', async () => {
    const fleet = await startSandboxFleet({ participants: 2, port: 0, quiet: true });
    try {
      const [first, second] = fleet.participants;
      if (!first || !second) throw new Error('two participants');
      const post = async (base: string, path: string, body: unknown) => {
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status, path).toBe(200);
        return await response.json();
      };
      const alice = (await post(first.url, '/v2/parties', { partyIdHint: 'alice' })).partyDetails
        .party as string;
      const bob = (await post(second.url, '/v2/parties', { partyIdHint: 'bob' })).partyDetails
        .party as string;
      const ws = new WebSocket(`${second.url.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth']);
      const message = new Promise<any>((resolve, reject) => {
        ws.on('message', (data: Buffer) => {
          resolve(JSON.parse(data.toString('utf8')));
        });
        ws.on('error', reject);
      });
      await new Promise((resolve) => ws.on('open', resolve));
      ws.send(JSON.stringify({ beginExclusive: 1, updateFormat: transactionsOf([bob]) }));
      const created = await post(first.url, '/v2/commands/submit-and-wait', {
        commands: [create(IOU, iou(alice, bob))],
        actAs: [alice],
        commandId: 'over-the-wire',
        userId: 'participant_admin',
      });
      const streamed = await message;
      ws.close();
      expect(checkSchema('JsGetUpdatesResponse', streamed)).toEqual([]);
      expect(streamed.update.Transaction.value.updateId).toBe(created.updateId);
      expect(streamed.update.Transaction.value.offset).toBe(2);
      expect(created.completionOffset).toBe(2);
    } finally {
      await fleet.close();
    }
  });

  it('refuses oidc, and a size outside 1 to 8', async () => {
    await expect(startSandboxFleet({ participants: 2, auth: 'oidc', port: 0 })).rejects.toThrow(
      FLEET_OIDC_REFUSAL,
    );
    await expect(startSandboxFleet({ participants: 9, port: 0 })).rejects.toThrow(
      'from 1 to 8, got 9',
    );
  });
});

describe('--participants', () => {
  it('parses a fleet size and refuses what cannot run', () => {
    expect(parseSandboxArgs(['--participants', '3', '--port', '7000']).participants).toBe(3);
    expect(parseSandboxArgs([]).participants).toBeUndefined();
    expect(() => parseSandboxArgs(['--participants', '0'])).toThrow(
      '--participants must be a number from 1 to 8, got "0"',
    );
    expect(() => parseSandboxArgs(['--participants', '2x'])).toThrow('got "2x"');
    expect(() => parseSandboxArgs(['--participants', '2', '--auth', 'oidc'])).toThrow(
      FLEET_OIDC_REFUSAL,
    );
    expect(() => parseSandboxArgs(['--participants', '3', '--port', '65534'])).toThrow(
      'leaves no room for 3 participants',
    );
  });
});
