import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, isBuildStale } from './ensure-build';

let root: string;

async function touch(relativePath: string, secondsAgo: number) {
  const file = path.join(root, relativePath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, relativePath);
  const when = new Date(Date.now() - secondsAgo * 1000);
  await utimes(file, when, when);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ledger-console-build-'));
  await touch('src/app/app.tsx', 300);
  await touch('src/lib/errors/api-error.ts', 300);
  await touch('index.html', 300);
  await touch('vite.config.ts', 300);
  await touch('package.json', 300);
  await touch('public/favicon.svg', 300);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('isBuildStale', () => {
  it('is stale when nothing was built yet', async () => {
    expect(await isBuildStale(root)).toBe(true);
  });

  it('is fresh when the build is newer than every input', async () => {
    await touch('dist/index.html', 60);

    expect(await isBuildStale(root)).toBe(false);
  });

  it.each([
    'src/features/participant/participant-info.tsx',
    'packages/edge/src/console-api.ts',
    'index.html',
    'public/favicon.svg',
    'vite.config.ts',
    'package.json',
  ])('is stale when %s changed after the build', async (input) => {
    await touch('dist/index.html', 60);
    await touch(input, 10);

    expect(await isBuildStale(root)).toBe(true);
  });

  it('ignores files that are not build inputs', async () => {
    await touch('dist/index.html', 60);
    await touch('sandbox/src/create-sandbox.ts', 10);
    await touch('packages/edge/src/request-guard.ts', 10);
    await touch('README.md', 10);

    expect(await isBuildStale(root)).toBe(false);
  });
});

describe('ensureBuilt', () => {
  // A project of its own whose Vite config records the process that loads it: the build must
  // not run in the server's process, where the bundler's memory would stay for good.
  async function project(config: string) {
    await writeFile(path.join(root, 'package.json'), '{"type":"module"}');
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(path.join(root, 'vite.config.ts'), config);
  }

  it('builds in a child process, then leaves a fresh dist/ alone', async () => {
    const pidFile = path.join(root, 'builder-pid');
    await project(
      [
        "import { appendFileSync } from 'node:fs';",
        `appendFileSync(${JSON.stringify(pidFile)}, String(process.pid) + '\\n');`,
        'export default {};',
      ].join('\n'),
    );
    const lines: string[] = [];

    expect(await ensureBuilt(root, (line) => lines.push(line))).toBe(true);

    const pids = (await readFile(pidFile, 'utf8')).trim().split('\n').map(Number);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids).not.toContain(process.pid);
    expect(await readFile(path.join(root, 'dist', 'index.html'), 'utf8')).toContain('<title>t');
    expect(lines).toEqual(['Building the console (dist/ is missing or out of date)…']);
    expect(await ensureBuilt(root, () => undefined)).toBe(false);
  }, 60_000);

  it('fails when the build fails', async () => {
    await project("throw new Error('broken config');\nexport default {};");

    await expect(ensureBuilt(root, () => undefined)).rejects.toThrow(
      /Building the console failed \(vite build ended with exit code 1\)/,
    );
  }, 60_000);
});
