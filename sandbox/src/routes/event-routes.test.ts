import { describe, expect, it } from 'vitest';
import { seededSandboxPerTest, wildcardFormat } from '../testing/ledger-history';
import { expectError } from '../testing/test-client';

const { t, h } = seededSandboxPerTest();

const eventsOf = (contractId: string, parties: string[]) =>
  t.post('/v2/events/events-by-contract-id', { contractId, eventFormat: wildcardFormat(parties) });

describe('POST /v2/events/events-by-contract-id', () => {
  it('gives the create and the archive of a contract in the ACS-delta presentation', async () => {
    const { json } = await eventsOf(h.cids.iou, [h.carol]);
    expect(json.created).toEqual({
      createdEvent: expect.objectContaining({
        offset: 5,
        nodeId: 0,
        contractId: h.cids.iou,
        witnessParties: [h.carol],
        signatories: [h.bank],
        observers: [h.alice, h.carol],
        acsDelta: true,
      }),
      synchronizerId: t.state.synchronizerId,
    });
    expect(json.archived).toEqual({
      archivedEvent: {
        offset: 6,
        nodeId: 0,
        contractId: h.cids.iou,
        templateId: json.created.createdEvent.templateId,
        witnessParties: [h.carol],
        packageName: 'sandbox-demo',
        implementedInterfaces: [],
      },
      synchronizerId: t.state.synchronizerId,
    });
  });

  it('gives no archive for an active contract', async () => {
    const { json } = await eventsOf(h.cids.rest70, [h.alice, h.bank]);
    expect(json.created.createdEvent.witnessParties).toEqual([h.alice, h.bank].sort());
    expect(json.archived).toBeNull();
  });

  it('says CONTRACT_EVENTS_NOT_FOUND for unknown, invisible and transient contracts', async () => {
    const unknown = `00${'ab'.repeat(32)}ca111220${'cd'.repeat(32)}`;
    const error = expectError(await eventsOf(unknown, [h.alice]), 404, 'CONTRACT_EVENTS_NOT_FOUND');
    expect(error.cause).toBe('Contract events not found, or not visible.');
    expectError(await eventsOf(h.cids.bobIou, [h.alice]), 404, 'CONTRACT_EVENTS_NOT_FOUND');
    // f.1 lived and died inside the Fanout run: no ACS-delta events.
    const transient = h.tx.run.nodes.find(
      (node) => node.kind === 'create' && node.archivedInNode !== null,
    );
    expectError(
      await eventsOf(transient?.contractId ?? '', [h.alice]),
      404,
      'CONTRACT_EVENTS_NOT_FOUND',
    );
  });

  it('wants a contract id and an event format', async () => {
    const empty = await t.post('/v2/events/events-by-contract-id', {
      eventFormat: wildcardFormat([h.alice]),
    });
    expect(expectError(empty, 400, 'MISSING_FIELD').context.field_name).toBe('contract_id');
    expectError(await eventsOf('not-a-contract-id', [h.alice]), 400, 'INVALID_FIELD');
    const noFormat = await t.post('/v2/events/events-by-contract-id', { contractId: h.cids.iou });
    expect(expectError(noFormat, 400, 'MISSING_FIELD').context.field_name).toBe('event_format');
  });
});
