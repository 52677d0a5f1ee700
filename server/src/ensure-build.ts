import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** What the SPA build reads; a change to any of them makes `dist/` stale. */
export const BUILD_INPUTS: readonly string[] = [
  'src',
  // The participant package (the Daml-LF decoder, the identifier rules) is bundled too (ADR 011).
  'packages/participant/src',
  // Of the edge package, the SPA bundles the `/__console` paths only (ADR 018).
  'packages/edge/src/console-api.ts',
  'index.html',
  'public',
  'vite.config.ts',
  'package.json',
];

/**
 * True when `dist/index.html` is missing or older than any build input. Only stats files (a few
 * hundred), so it is cheap enough to run on every start.
 */
export async function isBuildStale(
  root: string,
  distDir = path.join(root, 'dist'),
): Promise<boolean> {
  const builtAt = await modifiedAt(path.join(distDir, 'index.html'));
  if (builtAt === undefined) return true;
  for (const input of BUILD_INPUTS) {
    for (const file of await filesUnder(path.join(root, input))) {
      const changedAt = await modifiedAt(file);
      if (changedAt !== undefined && changedAt > builtAt) return true;
    }
  }
  return false;
}

/**
 * Builds the SPA unless `dist/` is up to date; returns whether it built. Vite runs in a child
 * process: built in the server's own process, the bundler's heap stayed resident for the
 * server's whole life (about 1.2 GB against 150 MB without a build).
 */
export async function ensureBuilt(root: string, log: (line: string) => void): Promise<boolean> {
  if (!(await isBuildStale(root))) return false;
  log('Building the console (dist/ is missing or out of date)…');
  await buildInChildProcess(root);
  return true;
}

/** Vite's own CLI, the copy this server resolves, run by the same Node as the server. */
function viteCli(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
}

function buildInChildProcess(root: string): Promise<void> {
  const args = [
    viteCli(),
    'build',
    root,
    '--config',
    path.join(root, 'vite.config.ts'),
    '--logLevel',
    'warn',
  ];
  return new Promise((resolve, reject) => {
    // Its warnings and errors go straight to the server's own output.
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else {
        const how = signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
        reject(new Error(`Building the console failed (vite build ended with ${how}).`));
      }
    });
  });
}

async function filesUnder(entry: string): Promise<string[]> {
  const info = await stat(entry).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) return [entry];
  const children = await readdir(entry, { recursive: true, withFileTypes: true });
  return children
    .filter((child) => child.isFile())
    .map((child) => path.join(child.parentPath, child.name));
}

async function modifiedAt(file: string): Promise<number | undefined> {
  const info = await stat(file).catch(() => undefined);
  return info?.mtimeMs;
}
