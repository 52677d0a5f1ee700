import { join } from 'node:path';
import { createSandbox, type Sandbox, type SandboxOptions } from '../create-sandbox';
import { connectFleet } from './fleet-synchronizer';

/** The most participants one fleet runs (a small bound: each is a whole participant). */
export const MAX_FLEET_PARTICIPANTS = 8;

export type SandboxFleetOptions = Omit<SandboxOptions, 'participantName'> & {
  /** How many participants, 1 to MAX_FLEET_PARTICIPANTS. */
  participants: number;
};

/** A participant of the fleet: a whole sandbox, with its name in the fleet. */
export type FleetMember = Sandbox & { name: string };

export type SandboxFleet = { participants: FleetMember[]; close(): void };

/** `participant1`, `participant2`, …: the fleet's participant names, which are also node names. */
export const fleetMemberName = (index: number) => `participant${String(index + 1)}`;

/** Throws an Error saying what is wrong with a participant count. */
export function checkFleetSize(participants: number): void {
  if (
    !Number.isInteger(participants) ||
    participants < 1 ||
    participants > MAX_FLEET_PARTICIPANTS
  ) {
    throw new Error(
      `The number of participants must be a whole number from 1 to ${String(MAX_FLEET_PARTICIPANTS)}, got ${String(participants)}`,
    );
  }
}

/**
 * Several sandbox participants connected to the same synchronizer(s), in process: each with its
 * own participant id, users, identity providers, packages, vetting and offsets (and, with a data
 * directory, its own `DIR/<name>/sandbox.db`), the fleet synchronizer delivering to each what it
 * sees of the others' updates (fleet-synchronizer.ts).
 */
export function createSandboxFleet({
  participants,
  dataDir,
  ...options
}: SandboxFleetOptions): SandboxFleet {
  checkFleetSize(participants);
  const members: FleetMember[] = [];
  try {
    for (let index = 0; index < participants; index++) {
      const name = fleetMemberName(index);
      const sandbox = createSandbox({
        ...options,
        participantName: name,
        hostedContractsOnly: true,
        mintForThisParticipantOnly: true,
        ...(dataDir === undefined ? {} : { dataDir: join(dataDir, name) }),
      });
      members.push({ ...sandbox, name });
    }
  } catch (error) {
    for (const member of members) member.close();
    throw error;
  }
  const disconnect = connectFleet(members.map((member) => member.state));
  return {
    participants: members,
    close: () => {
      disconnect();
      for (const member of members) member.close();
    },
  };
}
