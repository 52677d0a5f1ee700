import { bindingWarning } from '@ledger-console/edge/binding-warning';
import { mintUserToken } from './auth/user-token';
import { SANDBOX_USAGE, exposedApi, parseSandboxArgs } from './cli-options';
import { startSandboxFleet } from './fleet/start-sandbox-fleet';
import { startSandbox } from './start-sandbox';

const options = (() => {
  try {
    return parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${SANDBOX_USAGE}`);
    process.exit(2);
  }
})();
if (options.help) {
  console.log(SANDBOX_USAGE);
  process.exit(0);
}

if (options.participants !== undefined) {
  const { participants } = options;
  let fleet;
  try {
    fleet = await startSandboxFleet({ ...options, participants });
  } catch (error) {
    console.error(`Could not start the sandbox: ${(error as Error).message}`);
    process.exit(1);
  }
  const [first] = fleet.participants;
  if (first?.jwtSecret !== undefined) {
    console.log(`HS256 secret: ${first.jwtSecret}`);
    // Audience-based: each token is for its participant only, as the others refuse it.
    for (const member of fleet.participants) {
      const token = await mintUserToken(
        first.jwtSecret,
        'participant_admin',
        '12h',
        member.participantId,
      );
      console.log(`Token for participant_admin on ${member.name} (12 h): ${token}`);
    }
  }
  warnIfExposed();
  stopOnSignals(fleet);
} else {
  await startOne();
}

function stopOnSignals(running: { close(): Promise<void> }) {
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function warnIfExposed() {
  const exposed = exposedApi(options);
  for (const line of exposed ? bindingWarning(options.host ?? '127.0.0.1', exposed) : []) {
    console.warn(line);
  }
}

async function startOne() {
  let sandbox;
  try {
    const seedPauseAfter = process.env.SANDBOX_SEED_PAUSE_AFTER;
    sandbox = await startSandbox({
      ...options,
      ...(seedPauseAfter ? { seedPauseAfter } : {}),
    });
  } catch (error) {
    // Most often the port is taken; say which instead of printing a stack.
    console.error(`Could not start the sandbox: ${(error as Error).message}`);
    process.exit(1);
  }
  if (sandbox.jwtSecret !== undefined) {
    // Print a ready-made admin token so curl users can start right away.
    const token = await mintUserToken(sandbox.jwtSecret, 'participant_admin');
    console.log(`HS256 secret: ${sandbox.jwtSecret}`);
    console.log(`Token for participant_admin (12 h): ${token}`);
  }
  if (sandbox.oidc !== undefined) {
    console.log(
      'Sign in through the console, or open an issuer’s login page via the authorization endpoint;',
      'its page lists the sandbox’s users (new-hire is not onboarded).',
    );
    console.log(`Client ledger-console, redirect URIs: ${sandbox.oidc.redirectUris.join(' ')}`);
  }
  warnIfExposed();
  stopOnSignals(sandbox);
}
