import { bindingWarning } from '@ledger-console/edge/binding-warning';
import { mintUserToken } from './auth/user-token';
import { SANDBOX_USAGE, exposedApi, parseSandboxArgs } from './cli-options';
import { startSandbox } from './start-sandbox';

let options;
try {
  options = parseSandboxArgs(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${SANDBOX_USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(SANDBOX_USAGE);
  process.exit(0);
}

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
const exposed = exposedApi(options);
for (const line of exposed ? bindingWarning(options.host ?? '127.0.0.1', exposed) : []) {
  console.warn(line);
}

const running = sandbox;
const stop = () => {
  void running.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
