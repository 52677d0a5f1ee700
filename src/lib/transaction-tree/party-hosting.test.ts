import { describe, expect, it } from 'vitest';
import {
  hostingEventText,
  hostingOf,
  knownConfirmationThreshold,
  type HostingChange,
} from './party-hosting';

const P1 = 'p1::1220aa';
const P2 = 'p2::1220bb';
const P3 = 'p3::1220cc';
const ALICE = 'alice::1220dd';

const change = (
  offset: number,
  events: HostingChange['events'],
  synchronizerId = 'sync::1',
): HostingChange => ({
  updateId: `u${String(offset)}`,
  offset,
  recordTime: undefined,
  synchronizerId,
  events,
});

describe('hostingOf', () => {
  it('applies added, onboarding, changed and revoked events in offset order', () => {
    const changes = [
      // Out of order on purpose: the fold sorts by offset.
      change(13, [
        {
          kind: 'changed',
          partyId: ALICE,
          participantId: P2,
          permission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
        },
        { kind: 'revoked', partyId: ALICE, participantId: P1 },
      ]),
      change(11, [
        {
          kind: 'added',
          partyId: ALICE,
          participantId: P1,
          permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
        },
      ]),
      change(12, [
        {
          kind: 'onboarding',
          partyId: ALICE,
          participantId: P2,
          permission: 'PARTICIPANT_PERMISSION_OBSERVATION',
        },
      ]),
    ];
    expect(hostingOf(changes.slice(1))).toEqual([
      {
        synchronizerId: 'sync::1',
        participantId: P1,
        permission: 'submission',
        isOnboarding: false,
        sinceOffset: 11,
      },
      {
        synchronizerId: 'sync::1',
        participantId: P2,
        permission: 'observation',
        isOnboarding: true,
        sinceOffset: 12,
      },
    ]);
    expect(hostingOf(changes)).toEqual([
      {
        synchronizerId: 'sync::1',
        participantId: P2,
        permission: 'confirmation',
        isOnboarding: false,
        sinceOffset: 13,
      },
    ]);
  });

  it('keeps hosting on each synchronizer apart', () => {
    const added = (synchronizerId: string) =>
      change(
        synchronizerId === 'a::1' ? 1 : 2,
        [
          {
            kind: 'added',
            partyId: ALICE,
            participantId: P1,
            permission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
          },
        ],
        synchronizerId,
      );
    expect(hostingOf([added('a::1'), added('b::1')]).map((h) => h.synchronizerId)).toEqual([
      'a::1',
      'b::1',
    ]);
  });
});

describe('knownConfirmationThreshold', () => {
  const hosting = (permission: 'submission' | 'confirmation' | 'observation', id = P1) => ({
    synchronizerId: 's',
    participantId: id,
    permission,
    isOnboarding: false,
    sinceOffset: 1,
  });

  it('is 1 with a single confirming participant, unknown with several', () => {
    expect(knownConfirmationThreshold([hosting('confirmation'), hosting('observation', P2)])).toBe(
      1,
    );
    expect(knownConfirmationThreshold([hosting('submission')])).toBe(1);
    expect(
      knownConfirmationThreshold([hosting('confirmation'), hosting('confirmation', P2)]),
    ).toBeUndefined();
    // An onboarding participant does not confirm yet.
    expect(
      knownConfirmationThreshold([
        hosting('confirmation'),
        { ...hosting('confirmation', P3), isOnboarding: true },
      ]),
    ).toBe(1);
    expect(knownConfirmationThreshold([hosting('observation')])).toBeUndefined();
  });
});

describe('hostingEventText', () => {
  const participant = (id: string) => id.split('::')[0] ?? id;
  const party = participant;

  it('says each kind of change in plain words, with or without the party', () => {
    const base = { partyId: ALICE, participantId: P1 };
    expect(
      hostingEventText(
        { ...base, kind: 'added', permission: 'PARTICIPANT_PERMISSION_CONFIRMATION' },
        { participant, party },
      ),
    ).toBe('Party alice now hosted on participant p1 with confirmation permission');
    expect(
      hostingEventText(
        { ...base, kind: 'onboarding', permission: 'PARTICIPANT_PERMISSION_CONFIRMATION' },
        { participant },
      ),
    ).toBe(
      'Onboarding on participant p1 with confirmation permission: not confirming until its contracts are replicated',
    );
    expect(
      hostingEventText(
        { ...base, kind: 'changed', permission: 'PARTICIPANT_PERMISSION_OBSERVATION' },
        { participant },
      ),
    ).toBe('Now has observation permission on participant p1');
    expect(hostingEventText({ ...base, kind: 'revoked' }, { participant, party })).toBe(
      'Party alice no longer hosted on participant p1',
    );
    expect(
      hostingEventText(
        { ...base, kind: 'added', permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' },
        { participant },
      ),
    ).toBe('Now hosted on participant p1');
  });
});
