import { randomBytes } from 'node:crypto';
import { seedDemo } from '../seed/demo-seed';
import {
  listen,
  listenOptionsOf,
  type RunningSandbox,
  type StartSandboxOptions,
} from '../start-sandbox';
import { checkFleetSize, createSandboxFleet } from './create-sandbox-fleet';

export type StartSandboxFleetOptions = Omit<
  StartSandboxOptions,
  'participantName' | 'oidc' | 'seedPauseAfter'
> & {
  /** How many participants, 1 to MAX_FLEET_PARTICIPANTS. */
  participants: number;
};

/** A participant of a running fleet; its `close` stops its port only (the fleet's closes all). */
export type RunningFleetMember = RunningSandbox & { name: string };

export type RunningSandboxFleet = {
  participants: RunningFleetMember[];
  close(): Promise<void>;
};

/** Why `--auth oidc` and a fleet do not go together (said by the CLI and here). */
export const FLEET_OIDC_REFUSAL =
  'A sandbox with several participants runs with --auth none or --auth jwt: the embedded OpenID provider serves one participant (leave out --participants for --auth oidc)';

/**
 * Serves a fleet (create-sandbox-fleet.ts) on loopback: participant i on `port + i - 1`, or
 * each on a free port when `port` is 0. `seed: 'demo'` seeds participant1 only, before any port
 * opens; what the others then hold is what reaches them of it (docs/sandbox-fidelity.md).
 */
export async function startSandboxFleet(
  fleetOptions: StartSandboxFleetOptions,
): Promise<RunningSandboxFleet> {
  const served = listenOptionsOf(fleetOptions);
  const { port } = served;
  const { participants, quiet = false, seed = 'none', ...options } = fleetOptions;
  checkFleetSize(participants);
  if (options.auth === 'oidc') throw new Error(FLEET_OIDC_REFUSAL);
  if (port !== 0 && port + participants - 1 > 65535) {
    throw new Error(
      `Ports ${String(port)} to ${String(port + participants - 1)} do not all exist: pick a lower --port`,
    );
  }
  const jwtSecret =
    options.auth === 'jwt'
      ? (options.jwtSecret ?? randomBytes(24).toString('base64url'))
      : undefined;
  const fleet = createSandboxFleet({
    ...options,
    participants,
    ...(jwtSecret === undefined ? {} : { jwtSecret }),
  });
  const listening: Awaited<ReturnType<typeof listen>>[] = [];
  const closeAll = async () => {
    await Promise.allSettled(listening.map((member) => member.close()));
    fleet.close();
  };
  let seeded = false;
  let seedResumed = false;
  try {
    const [first] = fleet.participants;
    if (seed === 'demo' && first) {
      const result = await seedDemo(first, jwtSecret === undefined ? {} : { jwtSecret });
      seeded = result.seeded;
      seedResumed = result.seeded && result.resumed;
    }
    for (const [index, member] of fleet.participants.entries()) {
      listening.push(await listen(member, { ...served, port: port === 0 ? 0 : port + index }));
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
  const running = fleet.participants.map((member, index): RunningFleetMember => {
    const served = listening[index];
    if (!served) throw new Error(`participant ${member.name} is not listening`);
    return {
      name: member.name,
      url: served.url,
      ...(jwtSecret === undefined ? {} : { jwtSecret }),
      participantId: member.state.participantId,
      seeded: index === 0 && seeded,
      seedResumed: index === 0 && seedResumed,
      close: () => served.close(),
    };
  });
  if (!quiet) {
    console.log(
      `Sandbox fleet of ${String(participants)} participants on synchronizer(s) ${fleet.participants[0]?.state.synchronizers.map((synchronizer) => synchronizer.alias).join(', ') ?? ''} (auth: ${options.auth ?? 'none'})`,
    );
    if (seed === 'demo') {
      console.log(
        seeded
          ? `Seeded demo data on participant1${seedResumed ? ' (completing an interrupted seed)' : ''}`
          : 'Demo seed skipped: participant1 already has data',
      );
    }
    for (const member of running) {
      console.log(`${member.name}  ${member.url}  ${member.participantId}`);
    }
  }
  return { participants: running, close: closeAll };
}
