import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createCommand,
  FANOUT,
  seedHistory,
  submit,
  wildcardFormat,
  type History,
} from '../testing/ledger-history';
import { checkResponse } from '../testing/spec-conformance';
import { canActAs, createTestSandbox, expectError, sandboxPerTest } from '../testing/test-client';
import { hs256Token, TEST_SECRET } from '../testing/tokens';

const t = sandboxPerTest();

const contractIds = (entries: any[]) =>
  entries.map((entry) => entry.contractEntry.JsActiveContract.createdEvent.contractId as string);
const labels = (entries: any[]) =>
  entries.map(
    (entry) => entry.contractEntry.JsActiveContract.createdEvent.createArgument.label as string,
  );

describe('ledger end, pruning and synchronizers', () => {
  it('reports the ledger end with the synchronizer record time once there is history', async () => {
    expect((await t.get('/v2/state/ledger-end')).json).toEqual({
      offset: 0,
      synchronizerTimes: [],
    });
    const h = await seedHistory(t);
    const { json } = await t.get('/v2/state/ledger-end');
    expect(json).toEqual({
      offset: 11,
      synchronizerTimes: [
        { synchronizerId: t.state.synchronizerId, recordTime: h.tx.run.recordTime },
      ],
    });
    expect(json.synchronizerTimes[0].synchronizerId).toMatch(/^local::1220[0-9a-f]{64}$/);
    expect((await t.get('/v2/state/latest-pruned-offsets')).json).toEqual({
      participantPrunedUpToInclusive: 0,
      allDivulgedContractsPrunedUpToInclusive: 0,
    });
  });

  it('lists the connected synchronizer, with a permission only for a party hosted here', async () => {
    const alice = (await t.post('/v2/parties', { partyIdHint: 'Alice' })).json.partyDetails.party;
    const synchronizer = { synchronizerAlias: 'local', synchronizerId: t.state.synchronizerId };
    expect((await t.get('/v2/state/connected-synchronizers')).json).toEqual({
      connectedSynchronizers: [
        { ...synchronizer, permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' },
      ],
    });
    const forAlice = await t.get(
      `/v2/state/connected-synchronizers?party=${encodeURIComponent(alice)}`,
    );
    expect(forAlice.json.connectedSynchronizers).toEqual([
      { ...synchronizer, permission: 'PARTICIPANT_PERMISSION_SUBMISSION' },
    ]);
    const stranger = await t.get('/v2/state/connected-synchronizers?party=Nobody::1220ab');
    expect(stranger.json.connectedSynchronizers).toEqual([]);
    const elsewhere = await t.get('/v2/state/connected-synchronizers?participantId=other::1220ab');
    expect(elsewhere.json.connectedSynchronizers).toEqual([]);
    expect(
      expectError(await t.get('/v2/state/connected-synchronizers?party=bad!'), 400, 'INVALID_FIELD')
        .context.field_name,
    ).toBe('party');
    expectError(
      await t.get('/v2/state/connected-synchronizers?participantId=nonsense'),
      400,
      'INVALID_FIELD',
    );
  });

  it('lists every synchronizer of a participant connected to several, by alias', async () => {
    const two = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
    try {
      const [alpha = '', beta = ''] = two.state.synchronizerIds;
      expect(alpha).toMatch(/^alpha::1220[0-9a-f]{64}$/);
      expect(beta).toMatch(/^beta::1220[0-9a-f]{64}$/);
      expect(two.state.synchronizerId).toBe(alpha);
      expect((await two.get('/v2/state/connected-synchronizers')).json).toEqual({
        connectedSynchronizers: [
          {
            synchronizerAlias: 'alpha',
            synchronizerId: alpha,
            permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED',
          },
          {
            synchronizerAlias: 'beta',
            synchronizerId: beta,
            permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED',
          },
        ],
      });
      // With a party: only the synchronizers it was allocated on.
      const allocate = async (hint: string, synchronizerId: string) =>
        (await two.post('/v2/parties', { partyIdHint: hint, synchronizerId })).json.partyDetails
          .party as string;
      const onBeta = await allocate('OnBeta', beta);
      const onBoth = await allocate('OnBoth', alpha);
      await allocate('OnBoth', beta);
      const forParty = async (party: string) =>
        (await two.get(`/v2/state/connected-synchronizers?party=${encodeURIComponent(party)}`)).json
          .connectedSynchronizers;
      expect(await forParty(onBeta)).toEqual([
        {
          synchronizerAlias: 'beta',
          synchronizerId: beta,
          permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
        },
      ]);
      expect((await forParty(onBoth)).map((s: any) => s.synchronizerAlias)).toEqual([
        'alpha',
        'beta',
      ]);
      expect(await forParty('Nobody::1220ab')).toEqual([]);

      // The ledger end has a record time for each synchronizer that has seen an update.
      const end = (await two.get('/v2/state/ledger-end')).json;
      expect(end.offset).toBe(3);
      expect(end.synchronizerTimes.map((time: any) => time.synchronizerId)).toEqual([alpha, beta]);
    } finally {
      two.close();
    }
  });

  it('is public without a party, but needs a right for the party with one', async () => {
    const jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    try {
      const admin = await hs256Token('participant_admin');
      const party = async (hint: string) =>
        (await jwt.post('/v2/parties', { partyIdHint: hint }, { token: admin })).json.partyDetails
          .party as string;
      const alice = await party('Alice');
      const bob = await party('Bob');
      await jwt.post(
        '/v2/users',
        { user: { id: 'alice' }, rights: [canActAs(alice)] },
        { token: admin },
      );
      const token = await hs256Token('alice');
      expect((await jwt.get('/v2/state/ledger-end', { token })).json.offset).toBe(2);
      expect((await jwt.get('/v2/state/connected-synchronizers', { token })).status).toBe(200);
      const own = await jwt.get(
        `/v2/state/connected-synchronizers?party=${encodeURIComponent(alice)}`,
        {
          token,
        },
      );
      expect(own.json.connectedSynchronizers).toHaveLength(1);
      expectError(
        await jwt.get(`/v2/state/connected-synchronizers?party=${encodeURIComponent(bob)}`, {
          token,
        }),
        403,
        'NA',
      );
      expectError(await jwt.get('/v2/state/ledger-end'), 401, 'NA');
    } finally {
      jwt.close();
    }
  });
});

describe('POST /v2/state/active-contracts', () => {
  let h: History;
  beforeEach(async () => {
    h = await seedHistory(t);
  });
  const acs = (parties: string[], activeAtOffset: number, query = '') =>
    t.post(`/v2/state/active-contracts${query}`, {
      activeAtOffset,
      eventFormat: wildcardFormat(parties),
    });

  it('gives the active contracts a party is a stakeholder of, at any offset', async () => {
    expect((await acs([h.alice], 5)).json.map((e: any) => e.workflowId as string)).toEqual([
      'issuance',
    ]);
    expect(contractIds((await acs([h.alice], 5)).json)).toEqual([h.cids.iou]);
    expect(contractIds((await acs([h.alice], 6)).json)).toEqual([h.cids.split30, h.cids.rest70]);
    const atEnd = (await acs([h.alice], 11)).json;
    expect(contractIds(atEnd).slice(0, 3)).toEqual([h.cids.rest70, h.cids.account, h.cids.eurIou]);
    // The run's own children f.1 and f.2 were consumed by the nested runs in the same transaction.
    expect(labels(atEnd.slice(3))).toEqual(['f.1.1', 'f.1.2', 'f.2.1', 'f.2.2']);
    const entry = atEnd[0];
    expect(entry.contractEntry.JsActiveContract).toMatchObject({
      synchronizerId: t.state.synchronizerId,
      reassignmentCounter: 0,
    });
    expect(entry.contractEntry.JsActiveContract.createdEvent).toMatchObject({
      offset: 6,
      witnessParties: [h.alice],
      acsDelta: true,
      createdEventBlob: '',
    });
    expect(contractIds((await acs([h.carol], 11)).json)).toEqual([h.cids.rest70, h.cids.bobIou]);
    expect((await acs([h.alice], 0)).json).toEqual([]);
  });

  it('filters by template, includes blobs on request and accepts the legacy filter', async () => {
    const fanouts = await t.post('/v2/state/active-contracts', {
      activeAtOffset: 11,
      eventFormat: {
        filtersByParty: {
          [h.alice]: {
            cumulative: [
              {
                identifierFilter: {
                  TemplateFilter: {
                    value: {
                      templateId: '#sandbox-demo:Demo.Fanout:Fanout',
                      includeCreatedEventBlob: true,
                    },
                  },
                },
              },
            ],
          },
        },
      },
    });
    expect(fanouts.json).toHaveLength(4);
    expect(fanouts.json[0].contractEntry.JsActiveContract.createdEvent.createdEventBlob).not.toBe(
      '',
    );
    const legacy = await t.post('/v2/state/active-contracts', {
      activeAtOffset: 11,
      filter: { filtersByParty: { [h.bob]: { cumulative: [] } } },
      verbose: true,
    });
    expect(contractIds(legacy.json)).toEqual([h.cids.bobIou]);
    const both = await t.post('/v2/state/active-contracts', {
      activeAtOffset: 11,
      filter: { filtersByParty: { [h.bob]: { cumulative: [] } } },
      eventFormat: wildcardFormat([h.bob]),
    });
    expect(expectError(both, 400, 'INVALID_ARGUMENT').cause).toContain(
      'Both filter/verbose and event_format is specified.',
    );
  });

  it('resumes after a stream continuation token', async () => {
    const all = (await acs([h.alice], 11)).json;
    const resumed = await t.post('/v2/state/active-contracts', {
      activeAtOffset: 11,
      eventFormat: wildcardFormat([h.alice]),
      streamContinuationToken: all[2].streamContinuationToken,
    });
    expect(contractIds(resumed.json)).toEqual(contractIds(all.slice(3)));
    expectError(
      await t.post('/v2/state/active-contracts', {
        activeAtOffset: 10,
        eventFormat: wildcardFormat([h.alice]),
        streamContinuationToken: all[2].streamContinuationToken,
      }),
      400,
      'INVALID_FIELD',
    );
  });

  it('takes a party called __proto__ in filtersByParty as the party it is', async () => {
    // JSON.parse keeps __proto__ an own key, as the wire does.
    const byParty = (party: string) =>
      t.post('/v2/state/active-contracts', {
        activeAtOffset: 11,
        eventFormat: {
          filtersByParty: JSON.parse(`{${JSON.stringify(party)}:{"cumulative":[]}}`) as object,
        },
      });
    const proto = await byParty('__proto__');
    const other = await byParty('proto');
    expect(proto.status).toBe(other.status);
    expect(proto.json).toEqual(other.json);
  });

  it('rejects offsets after the ledger end and negative ones', async () => {
    const after = expectError(await acs([h.alice], 12), 400, 'OFFSET_AFTER_LEDGER_END');
    expect(after.cause).toBe('active_at_offset offset (12) is after ledger end (11)');
    expect(after.errorCategory).toBe(12);
    expectError(await acs([h.alice], -1), 400, 'NEGATIVE_OFFSET');
  });

  it('answers 413 above 200 contracts unless limited', async () => {
    for (let i = 0; i < 200; i++) {
      submit(t, [h.alice], [createCommand(t, FANOUT, { owner: h.alice, label: `bulk-${i}` })]);
    }
    const end = t.state.history.ledgerEnd();
    const error = expectError(
      await acs([h.alice], end),
      413,
      'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
    );
    expect(error.cause).toBe(
      'The number of matching elements (201) is greater than the node limit (200).',
    );
    expect((await acs([h.alice], end, '?limit=5')).json).toHaveLength(5);
  });
});

describe('GET /v2/state/active-contracts-page', () => {
  it('answers a body-less GET (all that fetch can send) as for {}', async () => {
    const { json, status } = await t.get('/v2/state/active-contracts-page');
    expect(status).toBe(400);
    expect(json.code).toBe('MISSING_FIELD');
    expect(json.context.field_name).toBe('event_format');
  });

  it('pages through the snapshot over HTTP, where a GET can carry its body', async () => {
    const h = await seedHistory(t);
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const instance = serve({ fetch: t.sandbox.app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
        resolve(instance);
      });
    });
    const { port } = server.address() as AddressInfo;
    const getPage = (body: unknown) =>
      new Promise<{ status: number; json: any }>((resolve, reject) => {
        const text = JSON.stringify(body);
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'GET',
            path: '/v2/state/active-contracts-page',
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(text),
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const responseText = Buffer.concat(chunks).toString('utf8');
              const status = response.statusCode ?? 0;
              const { errors } = checkResponse(
                'GET',
                '/v2/state/active-contracts-page',
                status,
                response.headers['content-type'] ?? null,
                responseText,
              );
              expect(errors).toEqual([]);
              resolve({ status, json: JSON.parse(responseText) });
            });
          },
        );
        request.on('error', reject);
        request.end(text);
      });
    try {
      const format = wildcardFormat([h.alice]);
      const seen: string[] = [];
      let pageToken = '';
      const sizes: number[] = [];
      for (;;) {
        const { json } = await getPage({ eventFormat: format, maxPageSize: 3, pageToken });
        expect(json.activeAtOffset).toBe(11);
        seen.push(...contractIds(json.activeContracts));
        sizes.push(json.activeContracts.length);
        if (json.nextPageToken === null) break;
        pageToken = json.nextPageToken;
      }
      expect(sizes).toEqual([3, 3, 1]);
      const all = await t.post('/v2/state/active-contracts', {
        activeAtOffset: 11,
        eventFormat: format,
      });
      expect(seen).toEqual(contractIds(all.json));
      const atSix = await getPage({ eventFormat: format, activeAtOffset: 6 });
      expect(contractIds(atSix.json.activeContracts)).toEqual([h.cids.split30, h.cids.rest70]);
      expect(atSix.json.nextPageToken).toBeNull();
      const foreign = await getPage({ eventFormat: format, pageToken: 'bm9wZQ==' });
      expect(foreign.status).toBe(400);
      expect(foreign.json.code).toBe('INVALID_ACTIVE_CONTRACTS_PAGE_TOKEN');
      const first = await getPage({ eventFormat: format, maxPageSize: 1 });
      const otherFormat = await getPage({
        eventFormat: wildcardFormat([h.bob]),
        pageToken: first.json.nextPageToken,
      });
      expect(otherFormat.json.code).toBe('INVALID_ACTIVE_CONTRACTS_PAGE_TOKEN');
      const tooBig = await getPage({ eventFormat: format, maxPageSize: 1001 });
      expect(tooBig.json.code).toBe('INVALID_ARGUMENT');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
