import { describe, expect, it } from 'vitest';
import type { ArchivedEvent, CreatedEvent, ExercisedEvent, TransactionEvents } from './model';
import {
  idHint,
  MAX_CONTRACT_IDS,
  matchesFilter,
  summarizeReassignment,
  summarizeTopology,
  summarizeTransaction,
  templateLabel,
} from './update-summary';

const PKG = 'a'.repeat(64);
const IOU = `${PKG}:Main.Iou:Iou`;
const PROPOSAL = `${PKG}:Main.Iou:IouProposal`;
const ALICE = `alice::1220${'1'.repeat(64)}`;
const BOB = `bob::1220${'2'.repeat(64)}`;
const BANK = `bank::1220${'3'.repeat(64)}`;
const CONTRACT_A = `00${'ab'.repeat(34)}`;

function created(nodeId: number, templateId: string, signatories = [BANK]): CreatedEvent {
  return {
    kind: 'created',
    nodeId,
    contractId: `c${String(nodeId)}`,
    templateId,
    packageName: 'main',
    witnessParties: signatories,
    acsDelta: true,
    createArgument: {},
    contractKey: null,
    signatories,
    observers: [],
    createdAt: null,
  };
}

function exercised(
  nodeId: number,
  templateId: string,
  choice: string,
  consuming: boolean,
  actingParties: string[],
): ExercisedEvent {
  return {
    kind: 'exercised',
    nodeId,
    contractId: `c${String(nodeId)}`,
    templateId,
    packageName: 'main',
    witnessParties: actingParties,
    acsDelta: consuming,
    choice,
    choiceArgument: {},
    exerciseResult: null,
    consuming,
    interfaceId: null,
    actingParties,
    lastDescendantNodeId: nodeId + 3,
  };
}

function transaction(events: TransactionEvents['events']): TransactionEvents {
  return { updateId: 'u1', offset: 7, recordTime: '2026-01-01T00:00:00Z', events };
}

describe('summarizeTransaction', () => {
  it('names the choices exercised, the templates created with counts, the archives and the actors', () => {
    const summary = summarizeTransaction(
      transaction([
        exercised(0, IOU, 'Iou_Split', true, [ALICE]),
        created(1, IOU, [BANK, ALICE]),
        created(2, IOU, [BANK, BOB]),
        exercised(3, PROPOSAL, 'Peek', false, [ALICE, BOB]),
      ]),
    );
    expect(summary.text).toBe(
      'Exercised Iou:Iou_Split, IouProposal:Peek (non-consuming); created Iou ×2; archived 1 contract by alice',
    );
    expect(summary.created).toEqual([{ templateId: IOU, count: 2 }]);
    expect(summary.exercised).toEqual([
      { templateId: IOU, choice: 'Iou_Split', consuming: true, count: 1 },
      { templateId: PROPOSAL, choice: 'Peek', consuming: false, count: 1 },
    ]);
    expect(summary.archivedCount).toBe(1);
    // Peek runs inside Iou_Split (nodes 0..3): bob acts there because alice's choice let him,
    // not because he submitted.
    expect(summary.actingParties).toEqual([ALICE]);
    expect(summary.eventCount).toBe(4);
    expect([...summary.parties].sort()).toEqual([ALICE, BANK, BOB].sort());
    expect(summary.templateIds).toEqual([IOU, PROPOSAL]);
    expect(summary).toMatchObject({ kind: 'transaction', updateId: 'u1', offset: 7 });
  });

  it('reads a plain create, ACS_DELTA archives, and a transaction with nothing visible', () => {
    // A top-level create's signatories authorized it: they acted.
    expect(summarizeTransaction(transaction([created(0, IOU)])).text).toBe('Created Iou by bank');
    const archived: ArchivedEvent = {
      kind: 'archived',
      nodeId: 0,
      contractId: 'c0',
      templateId: IOU,
      packageName: 'main',
      witnessParties: [BANK],
      acsDelta: null,
    };
    expect(summarizeTransaction(transaction([archived, { ...archived, nodeId: 1 }])).text).toBe(
      'Archived 2 contracts',
    );
    expect(summarizeTransaction(transaction([])).text).toBe('No events visible to you');
  });

  it('names three acting parties at most', () => {
    const parties = ['a::1', 'b::1', 'c::1', 'd::1', 'e::1'];
    const summary = summarizeTransaction(
      transaction([exercised(0, IOU, 'Archive', true, parties)]),
    );
    expect(summary.text).toBe('Exercised Iou:Archive; archived 1 contract by a, b, c and 2 more');
  });

  it('gives the row a create’s key values, the owner by name, and its contract id', () => {
    const summary = summarizeTransaction(
      transaction([
        {
          ...created(0, IOU, [BANK]),
          contractId: CONTRACT_A,
          createArgument: {
            issuer: BANK,
            owner: ALICE,
            currency: 'USD',
            amount: '100.0000000000',
            observers: [],
          },
        },
      ]),
    );
    expect(summary.keyValues).toEqual([
      { field: 'owner', value: 'alice' },
      { field: 'currency', value: 'USD' },
      { field: 'amount', value: '100' },
    ]);
    expect(summary.keyValuesText).toBe('owner alice · currency USD · amount 100');
    expect(summary.contractIds).toEqual([CONTRACT_A]);
    expect(summary.contractCount).toBe(1);
    expect(summary.actingParties).toEqual([BANK]);
  });

  it('gives an exercise its choice argument’s values, or its first create’s when it has none', () => {
    const split = summarizeTransaction(
      transaction([
        {
          ...exercised(0, IOU, 'Iou_Split', true, [ALICE]),
          choiceArgument: { splitAmount: '30.0' },
        },
        { ...created(1, IOU, [BANK, ALICE]), createArgument: { amount: '30.0' } },
        { ...created(2, IOU, [BANK, ALICE]), createArgument: { amount: '70.0' } },
      ]),
    );
    expect(split.keyValuesText).toBe('splitAmount 30');
    expect(split.contractIds).toEqual(['c0', 'c1', 'c2']);
    const transfer = summarizeTransaction(
      transaction([
        exercised(0, IOU, 'Archive', true, [ALICE]),
        { ...created(1, IOU), createArgument: { amount: '5.0', note: '<img src=x>' } },
      ]),
    );
    // Markup in ledger data stays text: the cell renders it as a text node.
    expect(transfer.keyValuesText).toBe('amount 5 · note <img src=x>');
  });

  it('keeps a bounded number of contract ids and counts the rest', () => {
    const events = Array.from({ length: 8 }, (_, n) => created(n, IOU));
    const summary = summarizeTransaction(transaction(events));
    expect(summary.contractIds).toEqual(['c0', 'c1', 'c2']);
    expect(summary.contractIds).toHaveLength(MAX_CONTRACT_IDS);
    expect(summary.contractCount).toBe(8);
  });

  it('says the same line with full ids for the hover', () => {
    const summary = summarizeTransaction(
      transaction([exercised(0, IOU, 'Iou_Split', true, [ALICE]), created(1, IOU, [ALICE])]),
    );
    expect(summary.text).toBe('Exercised Iou:Iou_Split; created Iou; archived 1 contract by alice');
    expect(summary.fullText).toBe(
      `Exercised ${IOU}:Iou_Split; created ${IOU}; archived 1 contract by ${ALICE}`,
    );
  });
});

describe('summarizeReassignment', () => {
  it('says which way contracts moved, between which synchronizers, and who submitted', () => {
    const summary = summarizeReassignment({
      updateId: 'r1',
      offset: 9,
      events: [1, 2].map((n) => ({
        kind: 'unassigned' as const,
        source: 'global::1220aa',
        target: 'private::1220bb',
        templateId: IOU,
        contractId: `00${String(n).repeat(64)}`,
        submitter: ALICE,
        witnessParties: [ALICE, BANK],
      })),
    });
    expect(summary.text).toBe('Unassigned 2 contracts from global → private (Iou) by alice');
    expect(summary.kind).toBe('reassignment');
    expect([...summary.parties].sort()).toEqual([ALICE, BANK].sort());
    const offline = summarizeReassignment({
      updateId: 'r2',
      offset: 10,
      events: [
        {
          kind: 'assigned',
          source: 'global::1220aa',
          target: 'private::1220bb',
          templateId: IOU,
          contractId: `00${'ab'.repeat(33)}`,
          submitter: '',
          witnessParties: [BANK],
        },
      ],
    });
    // One contract is named: its template and shortened id.
    expect(offline.text).toBe('Assigned Iou 00abab…abab from global → private');
    expect(offline.fullText).toBe(
      `Assigned ${IOU} 00${'ab'.repeat(33)} from global::1220aa → private::1220bb`,
    );
    expect(offline.contractIds).toEqual([`00${'ab'.repeat(33)}`]);
    expect(offline.actingParties).toEqual([]);
    expect(summary.actingParties).toEqual([ALICE]);
    expect(summary.contractCount).toBe(2);
  });
});

describe('summarizeTopology', () => {
  it('says in plain words which party is now hosted where, with which permission, or no longer', () => {
    const summary = summarizeTopology({
      updateId: 't1',
      offset: 3,
      events: [
        {
          kind: 'added',
          partyId: ALICE,
          participantId: 'participant1::1220cc',
          permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
        },
        { kind: 'revoked', partyId: BOB, participantId: 'participant1::1220cc' },
      ],
    });
    expect(summary.text).toBe(
      'Party alice now hosted on participant participant1 with submission permission; Party bob no longer hosted on participant participant1',
    );
    expect(summary.fullText).toBe(
      `Party ${ALICE} now hosted on participant participant1::1220cc with submission permission; Party ${BOB} no longer hosted on participant participant1::1220cc`,
    );
    expect(summary.parties).toEqual([ALICE, BOB]);
    expect(summary.templateIds).toEqual([]);
  });
});

describe('templateLabel and idHint', () => {
  it('shorten ids to what a person reads, leaving odd ones whole', () => {
    expect(templateLabel(IOU)).toBe('Iou');
    expect(templateLabel('#main:Main.Iou:Iou')).toBe('Iou');
    expect(templateLabel('weird')).toBe('weird');
    expect(idHint(ALICE)).toBe('alice');
    expect(idHint('no-namespace')).toBe('no-namespace');
  });
});

describe('matchesFilter', () => {
  const summary = summarizeTransaction(transaction([created(0, IOU, [BANK, ALICE])]));
  const topology = summarizeTopology({
    updateId: 't',
    offset: 1,
    events: [{ kind: 'added', partyId: BOB, participantId: 'p::1' }],
  });

  it('keeps updates of the kinds, party and template asked for', () => {
    expect(matchesFilter(summary, {})).toBe(true);
    expect(matchesFilter(summary, { party: ALICE })).toBe(true);
    expect(matchesFilter(summary, { party: 'ALICE' })).toBe(true);
    expect(matchesFilter(summary, { party: BOB })).toBe(false);
    expect(matchesFilter(summary, { template: 'main.iou:IOU' })).toBe(true);
    expect(matchesFilter(summary, { template: 'Proposal' })).toBe(false);
    expect(matchesFilter(summary, { kinds: ['topology'] })).toBe(false);
    expect(matchesFilter(topology, { kinds: ['topology'], party: BOB })).toBe(true);
    expect(matchesFilter(topology, { template: 'Iou' })).toBe(false);
  });
});
