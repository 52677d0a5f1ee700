/**
 * Where a party is hosted, read from the participant authorization events of the update stream
 * (ledger-api-behaviour.md §7.4, OpenAPI `TopologyEvent`): each event says that a participant now
 * hosts the party (Added), hosts it while the party's contracts are still being replicated to it
 * (Onboarding: it may not confirm yet), hosts it with another permission (Changed), or no longer
 * hosts it (Revoked). Pure: the API layer reads the wire into `HostingEvent`s.
 */

export type HostingEventKind = 'added' | 'changed' | 'onboarding' | 'revoked';

/** One participant authorization event, as the API layer reads it. */
export type HostingEvent = {
  readonly kind: HostingEventKind;
  readonly partyId: string;
  readonly participantId: string;
  /** `PARTICIPANT_PERMISSION_SUBMISSION` etc.; absent on revocations. */
  readonly permission?: string;
};

/** A topology transaction's events of one party, where and when it took effect. */
export type HostingChange = {
  readonly updateId: string;
  readonly offset: number;
  readonly recordTime: string | undefined;
  readonly synchronizerId: string;
  readonly events: readonly HostingEvent[];
};

export type Permission = 'submission' | 'confirmation' | 'observation';

const PERMISSIONS: Readonly<Record<string, Permission>> = {
  PARTICIPANT_PERMISSION_SUBMISSION: 'submission',
  PARTICIPANT_PERMISSION_CONFIRMATION: 'confirmation',
  PARTICIPANT_PERMISSION_OBSERVATION: 'observation',
};

/** `PARTICIPANT_PERMISSION_CONFIRMATION` → `confirmation`; undefined for unspecified or unknown. */
export function permissionOf(wire: string | undefined): Permission | undefined {
  return wire === undefined ? undefined : PERMISSIONS[wire];
}

/** One participant hosting the party on one synchronizer, as the events left it. */
export type Hosting = {
  readonly synchronizerId: string;
  readonly participantId: string;
  readonly permission: Permission | undefined;
  /** Its last event was Onboarding: the party's contracts are still being replicated to it. */
  readonly isOnboarding: boolean;
  /** The offset of the change that last touched this hosting. */
  readonly sinceOffset: number;
};

/**
 * The hosting the changes leave, in the order participants were first seen: Added, Onboarding
 * and Changed set a participant's permission, Revoked removes it. Changes are applied in offset
 * order whatever order they come in.
 */
export function hostingOf(changes: readonly HostingChange[]): Hosting[] {
  const byKey = new Map<string, Hosting>();
  const ordered = [...changes].sort((a, b) => a.offset - b.offset);
  for (const change of ordered) {
    for (const event of change.events) {
      const key = `${change.synchronizerId}\u0000${event.participantId}`;
      if (event.kind === 'revoked') {
        byKey.delete(key);
        continue;
      }
      byKey.set(key, {
        synchronizerId: change.synchronizerId,
        participantId: event.participantId,
        permission: permissionOf(event.permission),
        isOnboarding: event.kind === 'onboarding',
        sinceOffset: change.offset,
      });
    }
  }
  return [...byKey.values()];
}

/**
 * The confirmation threshold where the hosting alone determines it: a party with exactly one
 * participant that may confirm (submission or confirmation, not onboarding) has threshold 1, as
 * the threshold is at least 1 and at most the confirmers. With several confirmers the threshold
 * lives in the PartyToParticipant mapping, which the Ledger API does not report: undefined.
 */
export function knownConfirmationThreshold(hosting: readonly Hosting[]): number | undefined {
  const confirmers = hosting.filter(
    (entry) =>
      !entry.isOnboarding &&
      (entry.permission === 'submission' || entry.permission === 'confirmation'),
  );
  return confirmers.length === 1 ? 1 : undefined;
}

/** How a sentence names a participant and a party. */
export type HostingNaming = {
  readonly participant: (participantId: string) => string;
  /** Omitted: the sentence is about the party in context ("Hosted on …"). */
  readonly party?: (partyId: string) => string;
};

const withPermission = (permission: Permission | undefined) =>
  permission ? ` with ${permission} permission` : '';

/**
 * One event in plain words: "Party alice now hosted on participant p1 with confirmation
 * permission"; without a party namer, "Now hosted on participant p1 …" (the party page's
 * timeline, where the party is the page's).
 */
export function hostingEventText(event: HostingEvent, naming: HostingNaming): string {
  const where = `participant ${naming.participant(event.participantId)}`;
  const permission = permissionOf(event.permission);
  const sentence = (() => {
    switch (event.kind) {
      case 'added':
        return `now hosted on ${where}${withPermission(permission)}`;
      case 'onboarding':
        return `onboarding on ${where}${withPermission(permission)}: not confirming until its contracts are replicated`;
      case 'changed':
        return permission
          ? `now has ${permission} permission on ${where}`
          : `hosting changed on ${where}`;
      case 'revoked':
        return `no longer hosted on ${where}`;
    }
  })();
  if (naming.party) return `Party ${naming.party(event.partyId)} ${sentence}`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`;
}
