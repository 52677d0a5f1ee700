import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

// `npm run dev` serves the SPA from Vite and the API from `npm run dev:sandbox` (its default port).
const DEV_SANDBOX_URL = process.env.SANDBOX_URL ?? 'http://127.0.0.1:7575';
const API_PATHS = ['/v2', '/livez', '/readyz', '/__sandbox'];

// .ci/run sets this to collect machine-readable counts; locally only the console reporter runs.
const reportDir = process.env.TEST_REPORT_DIR;

function reactRouterBuild(build: 'development' | 'production', file: string): string {
  const packageJson = createRequire(import.meta.url).resolve('react-router/package.json');
  return path.join(path.dirname(packageJson), 'dist', build, file);
}

/**
 * React Router 7 exports only its development build, whatever the mode (remix-run/react-router
 * #14102): its dev warnings stay on in production ("No routes matched location …" on the
 * console). It ships the production build beside it, which differs in that flag alone; builds
 * take that one. The dev server and tests keep the warnings. The bench's bare pages take it too.
 */
export function reactRouterProductionBuild(): Plugin {
  // Both entries, or neither: `react-router/dom` (the RouterProvider that can flushSync) shares
  // its chunks, and so its contexts, with the build of `react-router` beside it.
  const production = reactRouterBuild('production', 'index.mjs');
  const productionDom = reactRouterBuild('production', 'dom-export.mjs');
  return {
    name: 'react-router-production-build',
    apply: 'build',
    config: () =>
      existsSync(production) && existsSync(productionDom)
        ? {
            resolve: {
              alias: [
                { find: /^react-router$/, replacement: production },
                { find: /^react-router\/dom$/, replacement: productionDom },
              ],
            },
          }
        : {},
  };
}

/**
 * The app shell as one chunk (ADR 028). Rolldown's automatic splitting gives every module that the
 * entry shares with a lazy page a common chunk of its own: the first page loaded 21 files for its
 * shell, each with its own import and export lists, and every page's preload list named them all.
 * Grouping our own modules that the entry imports statically makes them one chunk, and the group
 * takes along what they use (React, the router, the query client, Mantine's core and the
 * components the shell shows). Only our sources are named: a library's index re-exports all of it,
 * and following that would pull every component any page uses into the shell.
 */
export function appShellChunk(): Plugin {
  const shell = new Set<string>();
  const ownSource = (id: string) =>
    id.startsWith(root + path.sep) && !id.includes(`${path.sep}node_modules${path.sep}`);
  return {
    name: 'app-shell-chunk',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: 'index', test: (id) => shell.has(id) }] } },
        },
      },
    }),
    buildEnd() {
      shell.clear();
      const queue = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        if (shell.has(id)) continue;
        shell.add(id);
        const info = this.getModuleInfo(id);
        const dynamic = new Set(info?.dynamicallyImportedIds);
        for (const next of info?.importedIds ?? []) {
          if (ownSource(next) && !dynamic.has(next)) queue.push(next);
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), reactRouterProductionBuild(), appShellChunk()],
  resolve: {
    alias: {
      '@': path.join(root, 'src'),
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(
      API_PATHS.map((prefix) => [prefix, { target: DEV_SANDBOX_URL, ws: true }]),
    ),
  },
  build: {
    // Maps are written for decoding a production stack trace locally, but not referenced from the
    // bundles, and the console server serves them only with --source-maps (ADR 010).
    sourcemap: 'hidden',
    // The app shell is one chunk (ADR 028), about 580 KB minified and 175 KB gzip; what a first
    // page may weigh is measured against the limit by `npm run bench:web`, not by this warning.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // Chunks and assets by their hash alone (ADR 031): the shell lists every chunk a page may
      // preload, so each name cost every first load its bytes (1.4 KB gzip for 180 files). The
      // entry keeps its name; the hidden maps name every module.
      output: {
        chunkFileNames: 'assets/[hash].js',
        assetFileNames: 'assets/[hash][extname]',
        // Letters and digits only: no file name begins with a dash.
        hashCharacters: 'base36',
      },
    },
  },
  test: {
    // `react-router` and `react-router/dom` must load as one copy (one set of contexts); left to
    // the resolver, our modules got its CommonJS build and `react-router/dom` the ESM one.
    alias: [
      { find: /^react-router$/, replacement: reactRouterBuild('development', 'index.mjs') },
      {
        find: /^react-router\/dom$/,
        replacement: reactRouterBuild('development', 'dom-export.mjs'),
      },
    ],
    // Each test starts from real globals and real implementations (style guide §B10).
    unstubGlobals: true,
    restoreMocks: true,
    // Node's Request (behind the stubbed fetch) only takes absolute URLs; this is jsdom's origin.
    env: { VITE_API_BASE_URL: 'http://localhost:3000' },
    // The reference suite's line says how many checks against Canton's artifacts ran or were
    // skipped. A path, not an import: vitest loads it as TypeScript, Vite's config loader would not.
    reporters: [
      'default',
      './sandbox/src/testing/reference-suite-reporter.ts',
      ...(reportDir ? ['json'] : []),
    ],
    ...(reportDir ? { outputFile: { json: path.join(reportDir, 'vitest.json') } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/**/*.test.ts',
            'packages/**/*.test.ts',
            'sandbox/**/*.test.ts',
            'server/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['src/testing/setup-dom.ts'],
        },
      },
    ],
  },
});
