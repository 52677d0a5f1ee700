/** Pure reckoning of the fleet overview: ledger movement and parties hosted on several nodes. */

/** A ledger end read at a time. */
export type LedgerEndSample = { at: number; offset: number };

/** The window the overview states movement over. */
export const MOVEMENT_WINDOW_MS = 10_000;

/**
 * `samples` with `sample` added, keeping only what the movement window needs: the newest one at or
 * before its start (the baseline) and those after it.
 */
export function addSample(
  samples: readonly LedgerEndSample[],
  sample: LedgerEndSample,
  windowMs = MOVEMENT_WINDOW_MS,
): LedgerEndSample[] {
  const all = [...samples, sample].sort((a, b) => a.at - b.at);
  const start = sample.at - windowMs;
  let baseline = 0;
  all.forEach((candidate, index) => {
    if (candidate.at <= start) baseline = index;
  });
  return all.slice(baseline);
}

export type LedgerMovement = {
  /** Offsets the ledger end moved by within the window (0 when it did not move). */
  added: number;
  /** Over how many seconds that was measured (less than the window at first). */
  seconds: number;
};

/**
 * How far the ledger end moved over the last `windowMs` before the newest sample; undefined until
 * two samples are apart in time. An end that went back (a participant reset) counts as no
 * movement rather than a negative one.
 */
export function ledgerMovement(
  samples: readonly LedgerEndSample[],
  windowMs = MOVEMENT_WINDOW_MS,
): LedgerMovement | undefined {
  const newest = samples.at(-1);
  if (!newest) return undefined;
  const start = newest.at - windowMs;
  const baseline =
    [...samples].reverse().find((sample) => sample.at <= start) ??
    samples.find((sample) => sample.at < newest.at);
  if (!baseline || baseline.at >= newest.at) return undefined;
  const span = Math.min(windowMs, newest.at - baseline.at);
  return { added: Math.max(0, newest.offset - baseline.offset), seconds: Math.round(span / 1000) };
}

/** A party and the participants hosting it, in fleet order. */
export type SharedParty = { party: string; participants: string[] };

/**
 * The parties hosted on more than one participant, from each participant's hosted parties (in
 * fleet order; a participant whose list is unknown is left out), sorted by party.
 */
export function partiesOnSeveral(
  hosted: readonly { participant: string; parties: readonly string[] }[],
): SharedParty[] {
  const byParty = new Map<string, string[]>();
  for (const { participant, parties } of hosted) {
    for (const party of new Set(parties)) {
      const hosts = byParty.get(party) ?? [];
      hosts.push(participant);
      byParty.set(party, hosts);
    }
  }
  return [...byParty]
    .filter(([, participants]) => participants.length > 1)
    .map(([party, participants]) => ({ party, participants }))
    .sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0));
}
