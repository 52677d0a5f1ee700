import { FLEET_BASE_URL } from '../playwright.config';
import { expect, test } from './fixtures';
import { uniqueId } from './helpers/api';

// The console server of a fleet (`npm start -- --participants 2`, ADR 022) as a real browser meets
// it: a participant's page path, and the page's own requests and websockets through a
// participant's prefix, which the request guard must let through while it stops another site's.
// The SPA's journeys across participants are in the fleet specs of the SPA.

test.use({ baseURL: FLEET_BASE_URL });

const anyParty = { filtersForAnyParty: { cumulative: [] }, verbose: false };

test('a page of participant2 loads at /p/participant2/, and its calls reach participant2 only', async ({
  page,
  request,
}) => {
  const response = await page.goto('/p/participant2/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Ledger Console/);

  const userId = uniqueId('fleet-e2e');
  // Sent by the page, so with the browser's own Origin and Sec-Fetch-Site: the guard's test case.
  const status = await page.evaluate(async (id) => {
    const answer = await fetch('/participants/participant2/v2/users', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        user: {
          id,
          primaryParty: '',
          isDeactivated: false,
          identityProviderId: '',
          metadata: { resourceVersion: '', annotations: {} },
        },
        rights: [],
      }),
    });
    return answer.status;
  }, userId);
  expect(status).toBe(200);
  expect((await request.get(`/participants/participant2/v2/users/${userId}`)).status()).toBe(200);
  expect((await request.get(`/participants/participant1/v2/users/${userId}`)).status()).toBe(404);
  // The unprefixed paths are participant1's.
  expect((await request.get(`/v2/users/${userId}`)).status()).toBe(404);
});

test('the page streams a participant’s contracts through its prefix, as the server counts them', async ({
  page,
  request,
}) => {
  await page.goto('/p/participant1/');
  for (const name of ['participant1', 'participant2']) {
    const end = (await (await request.get(`/participants/${name}/v2/state/ledger-end`)).json()) as {
      offset: number;
    };
    const body = { activeAtOffset: end.offset, eventFormat: anyParty };
    const streamed = await page.evaluate(
      ({ path, message }) =>
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(`ws://${location.host}${path}`, ['daml.ws.auth']);
          let count = 0;
          ws.onopen = () => {
            ws.send(JSON.stringify(message));
          };
          ws.onmessage = () => {
            count += 1;
          };
          ws.onclose = (event) => {
            if (event.code === 1000) resolve(count);
            else reject(new Error(`closed with ${String(event.code)}`));
          };
        }),
      { path: `/participants/${name}/v2/state/active-contracts`, message: body },
    );
    const counted = (await (
      await request.post(`/participants/${name}/__console/active-contract-counts`, { data: body })
    ).json()) as { total: number };
    expect(streamed, name).toBe(counted.total);
    // participant1 holds the demo seed.
    if (name === 'participant1') expect(streamed).toBeGreaterThan(0);
  }
});

test.describe('another site', () => {
  // Chromium logs the refused handshake; the test asserts the refusal itself.
  test.use({ allowedConsoleErrors: [/WebSocket connection to .* failed/] });

  test('another site’s page cannot open a participant’s stream through its prefix', async ({
    page,
  }) => {
    // A page of another site, without a CSP of its own (the console's would keep it from
    // connecting anywhere else). A websocket needs no preflight and the participant never sees the
    // page's Origin, so only the console's guard stands between that page and the stream.
    await page.route('http://elsewhere.test/', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Elsewhere</title>' }),
    );
    await page.goto('http://elsewhere.test/');
    const outcome = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url, ['daml.ws.auth']);
          ws.onopen = () => {
            ws.close();
            resolve('opened');
          };
          ws.onclose = () => {
            resolve('refused');
          };
        }),
      `${FLEET_BASE_URL.replace('http', 'ws')}/participants/participant2/v2/state/active-contracts`,
    );
    expect(outcome).toBe('refused');
  });
});
