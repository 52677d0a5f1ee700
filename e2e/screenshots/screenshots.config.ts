import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config';

// `npm run screenshots`: every page at a phone's and a desktop's size, light and dark, into one
// folder for a reviewer (not committed). Its own console on its own port, with the demo ledger.
const PORT = 4181;
const BASE_URL = `http://127.0.0.1:${String(PORT)}`;
export const SCREENSHOTS_DIR = path.resolve(process.env.SCREENSHOTS_DIR ?? 'screenshots');

export default defineConfig({
  testDir: '.',
  testMatch: '*.shots.ts',
  outputDir: path.join(SCREENSHOTS_DIR, '.playwright'),
  timeout: 300_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `npm start -- --port ${String(PORT)} --traffic-cost`,
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
