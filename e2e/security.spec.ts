import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as playwrightTest } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueId } from './helpers/api';
import { assertFieldError, fillUserId, goToNewUser, submitCreateUser } from './helpers/users';
import { goToOverview } from './helpers/overview';
import {
  PING_DAR,
  PING_TITLE,
  assertPreviewMainPackage,
  chooseDarFile,
  goToUploadDar,
} from './helpers/packages';

test('the console runs under its Content-Security-Policy: pages, the Daml-LF worker, websockets', async ({
  page,
}) => {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (violation: string) => {
    violations.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const { reportCspViolation } = window as unknown as {
        reportCspViolation: (text: string) => void;
      };
      reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await goToOverview(page);
  // The upload preview decodes the DAR in the Daml-LF web worker.
  await goToUploadDar(page);
  await chooseDarFile(page, PING_DAR);
  await assertPreviewMainPackage(page, PING_TITLE);
  // Form validation (zod) runs without compiling code, which the policy forbids.
  await goToNewUser(page);
  await fillUserId(page, 'not valid!');
  await submitCreateUser(page);
  await assertFieldError(page, /^User id/, /character/i);

  expect(violations).toEqual([]);
});

// Playwright's own test: the refused websocket handshake is logged as a console error on purpose.
playwrightTest(
  "a page of another origin cannot create users or open the console's streams",
  async ({ page, request, baseURL }) => {
    const consoleUrl = baseURL ?? '';
    const refusedId = uniqueId('csrf');
    const typelessId = uniqueId('csrf-blob');
    // Any other site being browsed. Served from loopback for real: recent Chromium refuses requests
    // from public pages to loopback itself (Local Network Access), other browsers do not.
    const attacker = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>x</title>');
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const { port } = attacker.address() as AddressInfo;
    await page.goto(`http://localhost:${String(port)}/`);
    attacker.close();

    const socket = await page.evaluate(
      async ({ target, ids }) => {
        const user = (id: string) =>
          JSON.stringify({
            user: { id, primaryParty: '', isDeactivated: false, identityProviderId: '' },
            rights: [{ kind: { ParticipantAdmin: { value: {} } } }],
          });
        // "Simple" requests: no preflight, so the browser sends them whatever the answer.
        await fetch(`${target}/v2/users`, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'Content-Type': 'text/plain' },
          body: user(ids[0] ?? ''),
        });
        await fetch(`${target}/v2/users`, {
          method: 'POST',
          mode: 'no-cors',
          body: new Blob([user(ids[1] ?? '')]),
        });
        return new Promise<string>((resolve) => {
          const ws = new WebSocket(`${target.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth']);
          ws.onopen = () => {
            resolve('opened');
          };
          ws.onerror = () => {
            resolve('refused');
          };
        });
      },
      { target: consoleUrl, ids: [refusedId, typelessId] },
    );

    expect(socket).toBe('refused');
    for (const id of [refusedId, typelessId]) {
      expect((await request.get(`/v2/users/${id}`)).status(), id).toBe(404);
    }
  },
);

test("the console's own page can still create a user with the same request", async ({
  page,
  request,
}) => {
  const id = uniqueId('same-origin');
  await goToOverview(page);

  const status = await page.evaluate(async (userId) => {
    const response = await fetch('/v2/users', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        user: { id: userId, primaryParty: '', isDeactivated: false, identityProviderId: '' },
        rights: [],
      }),
    });
    return response.status;
  }, id);

  expect(status).toBe(200);
  expect((await request.get(`/v2/users/${id}`)).status()).toBe(200);
});
