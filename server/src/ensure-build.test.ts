import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBuildStale } from './ensure-build';

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
  await touch('src/lib/api-error.ts', 300);
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
    await touch('README.md', 10);

    expect(await isBuildStale(root)).toBe(false);
  });
});
