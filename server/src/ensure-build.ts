import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** What the SPA build reads; a change to any of them makes `dist/` stale. */
export const BUILD_INPUTS: readonly string[] = [
  'src',
  // The participant package (the Daml-LF decoder, the identifier rules) is bundled too (ADR 011).
  'packages/participant/src',
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

/** Builds the SPA with Vite's JS API unless `dist/` is up to date; returns whether it built. */
export async function ensureBuilt(root: string, log: (line: string) => void): Promise<boolean> {
  if (!(await isBuildStale(root))) return false;
  log('Building the console (dist/ is missing or out of date)…');
  // Imported lazily: Vite is only needed when there is something to build.
  const { build } = await import('vite');
  await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  return true;
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
