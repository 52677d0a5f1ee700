import { onTestFinished } from 'vitest';
import { createSandboxFleet, type SandboxFleet } from '../../sandbox/src/index';
import { consoleParticipantList } from './console-server';
import { renderFleetRoute } from './render-route';

export { createSandboxFleet, type SandboxFleet };

/**
 * Renders the whole app at `path` against an in-process sandbox fleet as the console server
 * fronts one: routed by participant prefix, with the server's own participant list. The fleet is
 * closed when the test ends.
 */
export async function renderSandboxFleet(
  path: string,
  fleet: SandboxFleet = createSandboxFleet({ participants: 2 }),
) {
  const members = fleet.participants.map((member) => ({ name: member.name, sandbox: member }));
  const console = await consoleParticipantList(members.map((member) => member.name));
  const rendered = renderFleetRoute(path, members, { console });
  onTestFinished(() => {
    fleet.close();
  });
  return { ...rendered, fleet };
}
