import { describe, expect, it } from 'vitest';
import { routeFetchToSandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedActiveContracts } from '@/testing/seed-contracts';
import {
  activeContractOf,
  activeContractsRequest,
  streamActiveContracts,
  StringPool,
  type ActiveContract,
  type ActiveContractsQuery,
} from './active-contracts';
import type { LedgerStreamStatus } from './ledger-stream';

function run(query: ActiveContractsQuery, maxContracts?: number) {
  const contracts: ActiveContract[] = [];
  const statuses: LedgerStreamStatus['kind'][] = [];
  let capped = false;
  return new Promise<{ contracts: ActiveContract[]; statuses: string[]; capped: boolean }>(
    (resolve) => {
      const done = () => {
        resolve({ contracts, statuses, capped });
      };
      streamActiveContracts(query, {
        onContracts: (batch) => contracts.push(...batch),
        onStatus: (status) => {
          statuses.push(status.kind);
          if (status.kind === 'ended' || status.kind === 'failed') done();
        },
        onCapped: () => {
          capped = true;
          done();
        },
        ...(maxContracts === undefined ? {} : { maxContracts }),
      });
    },
  );
}

describe('activeContractsRequest', () => {
  it('asks per party, or for any party, with the template or interface (and its view)', () => {
    expect(
      activeContractsRequest({
        parties: ['alice'],
        activeAtOffset: 7,
        filter: { kind: 'template', templateId: '#pkg:M:T' },
      }),
    ).toEqual({
      activeAtOffset: 7,
      eventFormat: {
        filtersByParty: {
          alice: {
            cumulative: [
              {
                identifierFilter: {
                  TemplateFilter: {
                    value: { templateId: '#pkg:M:T', includeCreatedEventBlob: false },
                  },
                },
              },
            ],
          },
        },
        verbose: true,
      },
    });
    const anyParty = activeContractsRequest({
      parties: 'any',
      activeAtOffset: 3,
      filter: { kind: 'interface', interfaceId: '#pkg:M:I' },
    });
    expect(anyParty.eventFormat.filtersForAnyParty?.cumulative?.[0]?.identifierFilter).toEqual({
      InterfaceFilter: {
        value: {
          interfaceId: '#pkg:M:I',
          includeInterfaceView: true,
          includeCreatedEventBlob: false,
        },
      },
    });
  });
});

describe('activeContractOf', () => {
  it('keeps active contracts only, with their strings shared', () => {
    const pool = new StringPool();
    const element = (contractId: string) => ({
      contractEntry: {
        JsActiveContract: {
          synchronizerId: 'sync::1',
          reassignmentCounter: 0,
          createdEvent: {
            offset: 4,
            nodeId: 0,
            contractId,
            templateId: 'pkg:M:T',
            packageName: 'pkg',
            createArgument: { owner: 'alice::1220', tags: ['x', 'x'] },
            signatories: ['alice::1220'],
            witnessParties: ['alice::1220'],
            createdAt: '2026-01-01T00:00:00Z',
            representativePackageId: 'pkg',
            acsDelta: true,
          },
        },
      },
    });
    const a = activeContractOf(element('c1'), pool);
    const b = activeContractOf(element('c2'), pool);
    expect(a).toMatchObject({
      contractId: 'c1',
      offset: 4,
      observers: [],
      synchronizerId: 'sync::1',
    });
    expect((a?.createArgument as { owner: string }).owner).toBe('alice::1220');
    expect(activeContractOf({ contractEntry: { JsEmpty: {} } }, pool)).toBeUndefined();
    expect(activeContractOf('nonsense', pool)).toBeUndefined();
    expect(b?.createArgument).toEqual({ owner: 'alice::1220', tags: ['x', 'x'] });
    // One entry per distinct string value (JSON.parse shares keys itself).
    expect(pool.size).toBe(['pkg:M:T', 'pkg', 'alice::1220', 'x', 'sync::1'].length);
    // A `__proto__` field stays a field, and changes no prototype.
    const odd = activeContractOf(
      JSON.parse(JSON.stringify(element('c3')).replace('"tags"', '"__proto__"')),
      pool,
    );
    expect(Object.getPrototypeOf(odd?.createArgument)).toBe(Object.prototype);
    expect(Object.hasOwn(odd?.createArgument as object, '__proto__')).toBe(true);
  });

  it('bounds the pool: beyond its size, strings are kept but not shared', () => {
    const pool = new StringPool(2, 5);
    expect(pool.intern('long string')).toBe('long string');
    expect(pool.size).toBe(0);
    for (const text of ['a', 'b', 'c', 'a']) expect(pool.intern(text)).toBe(text);
    expect(pool.size).toBe(2);
  });
});

describe('streamActiveContracts', () => {
  it('streams every contract past the plain endpoint’s cap, and stops at its own', async () => {
    const { sandbox } = routeFetchToSandbox();
    const owner = await sandboxSteps(sandbox).allocateFreshParty('holder');
    const { ledgerEnd } = await seedActiveContracts(sandbox, { owner, count: 320 });

    const all = await run({ parties: [owner], activeAtOffset: ledgerEnd });
    expect(all.contracts).toHaveLength(320);
    expect(new Set(all.contracts.map((contract) => contract.contractId)).size).toBe(320);
    expect(all.statuses.at(-1)).toBe('ended');
    expect(all.capped).toBe(false);

    const capped = await run({ parties: [owner], activeAtOffset: ledgerEnd }, 100);
    expect(capped.contracts).toHaveLength(100);
    expect(capped.capped).toBe(true);
  });

  it('resumes after the last contract seen when the connection drops', async () => {
    const network = routeFetchToSandbox();
    const owner = await sandboxSteps(network.sandbox).allocateFreshParty('holder');
    const { ledgerEnd } = await seedActiveContracts(network.sandbox, { owner, count: 3000 });
    const contracts: ActiveContract[] = [];
    const statuses: string[] = [];
    let beforeDrop = 0;
    await new Promise<void>((resolve) => {
      streamActiveContracts(
        { parties: [owner], activeAtOffset: ledgerEnd },
        {
          onContracts: (batch) => {
            contracts.push(...batch);
            if (beforeDrop === 0) {
              beforeDrop = contracts.length;
              network.dropStreams();
            }
          },
          onStatus: (status) => {
            statuses.push(status.kind);
            if (status.kind === 'ended' || status.kind === 'failed') resolve();
          },
        },
      );
    });
    expect(beforeDrop).toBeLessThan(3000);
    expect(statuses).toContain('reconnecting');
    expect(statuses.at(-1)).toBe('ended');
    expect(contracts).toHaveLength(3000);
    expect(new Set(contracts.map((contract) => contract.contractId)).size).toBe(3000);
  }, 30_000); // 3,000 messages, a task each, and a reconnect: over 5 s on a loaded 2-core machine
});
