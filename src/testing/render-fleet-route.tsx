import { onTestFinished } from 'vitest';
import { createSandboxFleet, type SandboxFleet } from '../../sandbox/src/index';
import { renderApp } from './render-route';
import { routeFetchToParticipants } from './sandbox-network';

export { createSandboxFleet, type SandboxFleet };

/**
 * Renders the whole app at `path` against an in-process sandbox fleet, routed as the console
 * server routes one (`/participants/NAME/…`, the first participant unprefixed too), with the
 * server's participant list: pages that read other participants run end to end.
 */
export function renderFleetRoute(
  path: string,
  fleet: SandboxFleet = createSandboxFleet({ participants: 2 }),
) {
  const members = fleet.participants.map((member) => ({ name: member.name, sandbox: member }));
  const list = {
    participants: members.map(({ name }, index) => ({
      name,
      apiPath: `/participants/${name}`,
      pagePath: `/p/${name}`,
      default: index === 0,
    })),
  };
  const network = routeFetchToParticipants(members, {
    console: (request) =>
      Promise.resolve(
        new URL(request.url).pathname === '/__console/participants'
          ? Response.json(list)
          : undefined,
      ),
  });
  const app = renderApp(path);
  onTestFinished(() => {
    fleet.close();
  });
  return { ...app, fleet, network };
}
