/**
 * The bare pages benchmarks measure the console against (issue 29), built in the same run as the
 * console and served by the same console server code (same origin, same proxy to the sandbox).
 * Every `*.html` here is a page; each is the least a page doing that job needs.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root,
  logLevel: 'warn',
  plugins: [react()],
  // Bare pages that time one of the console's own modules beside the limit (the graph's layout,
  // the decoders) import it as the console does.
  resolve: { alias: { '@': path.join(root, '../../src') } },
  build: {
    emptyOutDir: true,
    rollupOptions: {
      input: Object.fromEntries(
        readdirSync(root)
          .filter((name) => name.endsWith('.html'))
          .map((name) => [name.slice(0, -'.html'.length), path.join(root, name)]),
      ),
    },
  },
});
