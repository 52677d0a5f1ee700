import { describe, expect, it } from 'vitest';
import { addSample, ledgerMovement, partiesOnSeveral, type LedgerEndSample } from './fleet-facts';

describe('ledger movement', () => {
  it('is unknown until two reads are apart in time', () => {
    expect(ledgerMovement([])).toBeUndefined();
    expect(ledgerMovement([{ at: 1000, offset: 5 }])).toBeUndefined();
  });

  it('counts offsets over the window before the newest read', () => {
    let samples: LedgerEndSample[] = [];
    for (const [at, offset] of [
      [0, 10],
      [2_000, 12],
      [4_000, 15],
      [12_000, 30],
      [14_000, 31],
    ] as const) {
      samples = addSample(samples, { at, offset });
    }
    // Baseline: the newest read at or before 14 s - 10 s = 4 s, offset 15.
    expect(ledgerMovement(samples)).toEqual({ added: 16, seconds: 10 });
    // Older reads than the baseline are dropped.
    expect(samples[0]).toEqual({ at: 4_000, offset: 15 });
  });

  it('measures over less than the window at first', () => {
    const samples = addSample([{ at: 0, offset: 3 }], { at: 4_000, offset: 7 });
    expect(ledgerMovement(samples)).toEqual({ added: 4, seconds: 4 });
  });

  it('shows a ledger end that went back as no movement', () => {
    const samples = addSample([{ at: 0, offset: 30 }], { at: 2_000, offset: 2 });
    expect(ledgerMovement(samples)).toEqual({ added: 0, seconds: 2 });
  });
});

describe('parties on several participants', () => {
  it('lists each party hosted on more than one, with its hosts in fleet order', () => {
    expect(
      partiesOnSeveral([
        { participant: 'participant1', parties: ['alice::1', 'bob::1', 'carol::1'] },
        { participant: 'participant2', parties: ['bob::1', 'dave::2'] },
        { participant: 'participant3', parties: ['carol::1', 'bob::1', 'bob::1'] },
      ]),
    ).toEqual([
      { party: 'bob::1', participants: ['participant1', 'participant2', 'participant3'] },
      { party: 'carol::1', participants: ['participant1', 'participant3'] },
    ]);
  });

  it('is empty when every party has one host', () => {
    expect(
      partiesOnSeveral([
        { participant: 'a', parties: ['x'] },
        { participant: 'b', parties: ['y'] },
      ]),
    ).toEqual([]);
  });
});
