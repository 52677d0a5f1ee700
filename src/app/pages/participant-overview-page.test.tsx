import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET, type Sandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedRightsHolders } from '@/testing/seed-party-access';
import { sandboxJson, seedPartyRecords } from '@/testing/seed-parties';
import { seedUsers } from '@/testing/seed-users';
import { mintToken, signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

// Whole-app renders with a dozen requests each; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;
// The ledger end is polled every 3 seconds: a change shows within one poll and a render.
const POLL_WAIT = { timeout: 8_000 };

const card = (name: string) => screen.getByRole('region', { name });

/** The figure a card shows once loaded: its first line. */
async function figureOf(name: string): Promise<HTMLElement> {
  const region = await screen.findByRole('region', { name });
  await waitFor(() => {
    expect(within(region).queryByRole('status')).toBeNull();
  });
  return region;
}

const linkIn = (name: string, link: string) => within(card(name)).getByRole('link', { name: link });

/** A jwt-mode sandbox whose participant_admin may also submit as any party, to seed transactions. */
async function jwtSandbox(): Promise<{ sandbox: Sandbox; adminToken: string }> {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
  sandbox.state.users.addRights('participant_admin', [{ kind: 'CanActAsAnyParty', party: '' }]);
  return { sandbox, adminToken: await mintToken(sandbox, 'participant_admin') };
}

async function packageCount(sandbox: Sandbox, token?: string): Promise<number> {
  const { packageIds } = await sandboxJson<{ packageIds: string[] }>(
    sandbox,
    'GET',
    '/v2/packages',
    undefined,
    token,
  );
  return packageIds.length;
}

describe('participant overview', () => {
  it('shows the API version, the participant id, and that the participant is live and ready', async () => {
    const { sandbox } = renderRoute('/');
    const participantId = sandbox.state.participantId;

    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
    const version = await screen.findByRole('group', { name: 'API version' });
    expect(within(version).getByText('3.5.7', { exact: true })).toBeVisible();
    const participant = screen.getByRole('group', { name: 'Participant id' });
    expect(within(participant).getByText(participantId, { exact: true })).toBeVisible();
    expect(within(participant).getByRole('button', { name: 'Copy participant id' })).toBeVisible();

    const health = screen.getByRole('region', { name: 'Health' });
    const liveness = await within(health).findByRole('group', { name: 'Liveness' });
    expect(within(liveness).getByText('Live', { exact: true })).toBeVisible();
    const readiness = within(health).getByRole('group', { name: 'Readiness' });
    expect(within(readiness).getByText('Ready', { exact: true })).toBeVisible();
    expect(readiness).toHaveTextContent('readyz check passed');
  });

  it('shows "Not ready" with the failed checks when readyz answers 503', async () => {
    renderRoute('/', {
      // The sandbox is always ready, so answer readyz as a starting participant does
      // (ledger-api-behaviour.md §8, JSON/HealthService.scala).
      intercept: async (request, sandboxFetch) =>
        new URL(request.url).pathname === '/readyz'
          ? new Response('[-] ledger failed (NOT_SERVING)\nreadyz check failed\n', {
              status: 503,
              headers: { 'Content-Type': 'text/plain; charset=UTF-8' },
            })
          : sandboxFetch(request),
    });

    const readiness = await screen.findByRole('group', { name: 'Readiness' });
    expect(within(readiness).getByText('Not ready', { exact: true })).toBeVisible();
    expect(readiness).toHaveTextContent('ledger failed (NOT_SERVING)');
    expect(
      within(screen.getByRole('group', { name: 'Liveness' })).getByText('Live', { exact: true }),
    ).toBeVisible();
  });

  it('shows why the participant cannot be reached, and recovers on Retry', async () => {
    const { interceptNetwork, user } = renderRoute('/', {
      intercept: () => Promise.reject(new TypeError('fetch failed')),
    });
    // React reports errors that a boundary caught; here that is the point of the test.
    allowConsole(/^ApiError: NETWORK_UNREACHABLE/);

    // One banner says it; the section waits quietly instead of repeating the error.
    const banner = await screen.findByRole('alert', { name: 'The participant does not answer' });
    expect(banner).toHaveTextContent('fetch failed');
    const info = await screen.findByRole('region', { name: 'Participant' });
    expect(await within(info).findByRole('status')).toHaveTextContent(
      'Waiting for the participant',
    );
    expect(within(info).queryByRole('alert')).not.toBeInTheDocument();

    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(banner).getByRole('button', { name: 'Retry now' }));

    // Back: the banner goes and the section loads without another click.
    const version = await within(info).findByRole('group', { name: 'API version' });
    expect(within(version).getByText('3.5.7', { exact: true })).toBeVisible();
    await waitFor(() => {
      expect(screen.queryByRole('alert', { name: 'The participant does not answer' })).toBeNull();
    });
  });
});

describe('the overview as a dashboard', () => {
  it(
    'shows a participant admin the counts of users, parties and packages, each linking to its page',
    async () => {
      const { sandbox, adminToken } = await jwtSandbox();
      seedUsers(sandbox, 4);
      seedPartyRecords(sandbox, [
        { hint: 'alice' },
        { hint: 'bob' },
        { hint: 'elsewhere', isLocal: false },
      ]);
      const packages = await packageCount(sandbox, adminToken);
      await signInAs(sandbox, 'participant_admin');
      const { user } = renderRoute('/', { sandbox });

      // participant_admin and the four seeded, all of the default identity provider.
      const users = await figureOf('Users');
      expect(within(users).getByText('5', { exact: true })).toBeVisible();
      expect(users).toHaveTextContent('In the default identity provider');
      const parties = await figureOf('Parties');
      expect(within(parties).getByText('3', { exact: true })).toBeVisible();
      // Which number counts what: all known parties, then those hosted here in the caller's IdP.
      expect(parties).toHaveTextContent('Known to this participant, wherever hosted.');
      expect(parties).toHaveTextContent(
        'Of these, 2 are hosted here and belong to the default identity provider.',
      );
      const packagesCard = await figureOf('Packages');
      expect(within(packagesCard).getByText(String(packages), { exact: true })).toBeVisible();
      const synchronizers = await figureOf('Connected synchronizers');
      expect(within(synchronizers).getByText('1', { exact: true })).toBeVisible();
      expect(synchronizers).toHaveTextContent('local');
      const pruned = await figureOf('Pruned up to');
      expect(within(pruned).getByText('None', { exact: true })).toBeVisible();

      expect(linkIn('Ledger end', 'Watch live')).toHaveAttribute('href', paths.live.to());
      expect(linkIn('Users', 'All users')).toHaveAttribute('href', paths.users.to());
      expect(linkIn('Parties', 'All parties')).toHaveAttribute('href', paths.parties.to());
      expect(linkIn('Packages', 'All packages')).toHaveAttribute('href', paths.packages.to());
      expect(linkIn('Pruned up to', 'History')).toHaveAttribute('href', paths.transactions.to());
      expect(linkIn('Latest activity', 'All transactions')).toHaveAttribute(
        'href',
        paths.transactions.to(),
      );
      expect(linkIn('Latest activity', 'Admin changes')).toHaveAttribute(
        'href',
        paths.activity.to(),
      );

      await user.click(linkIn('Users', 'All users'));
      expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it('counts exactly 1000 users: a full page with nothing after it is not "1000+"', async () => {
    const sandbox = createSandbox();
    // With participant_admin: 1000 users.
    seedUsers(sandbox, 999);
    renderRoute('/', { sandbox });
    expect(within(await figureOf('Users')).getByText('1000', { exact: true })).toBeVisible();
  });

  it('shows "1000+" when there are more users than it counts', async () => {
    const sandbox = createSandbox();
    seedUsers(sandbox, 1000);
    renderRoute('/', { sandbox });
    expect(within(await figureOf('Users')).getByText('1000+', { exact: true })).toBeVisible();
  });

  it(
    'shows an identity provider admin only the users and local parties of its identity provider',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      const { identityProviderId } = await signInAsIdentityProviderAdmin(sandbox);
      seedUsers(sandbox, 3, { prefix: 'acme-user', identityProviderId });
      seedUsers(sandbox, 7, { prefix: 'default-user' });
      seedPartyRecords(sandbox, [
        { hint: 'acme-party', identityProviderId },
        { hint: 'default-party' },
        { hint: 'elsewhere', isLocal: false },
      ]);
      renderRoute('/', { sandbox });

      // acme-admin and its three; none of the default identity provider's eight.
      const users = await figureOf('Users');
      expect(within(users).getByText('4', { exact: true })).toBeVisible();
      expect(users).toHaveTextContent(`In identity provider ${identityProviderId}`);
      // Every party is listed; only acme's is local to its view.
      const parties = await figureOf('Parties');
      expect(within(parties).getByText('3', { exact: true })).toBeVisible();
      expect(parties).toHaveTextContent(
        `Of these, 1 is hosted here and belongs to identity provider ${identityProviderId}.`,
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows a user with a party’s read right what it may see, and "not visible to you" for the rest',
    async () => {
      const { sandbox, adminToken } = await jwtSandbox();
      const seeded = await sandboxSteps(sandbox, adminToken).iouSplit();
      seedRightsHolders(sandbox, [
        { userId: 'reader', rights: [{ kind: 'CanReadAs', party: seeded.owner }] },
      ]);
      const packages = await packageCount(sandbox, adminToken);
      await signInAs(sandbox, 'reader');
      renderRoute('/', { sandbox });

      for (const name of ['Users', 'Parties']) {
        const region = await figureOf(name);
        expect(within(region).getByText('Not visible to you')).toBeVisible();
        expect(region).toHaveTextContent('This needs Participant admin or Identity provider admin');
        expect(within(region).queryByText('0', { exact: true })).toBeNull();
      }
      expect(
        within(await figureOf('Packages')).getByText(String(packages), { exact: true }),
      ).toBeVisible();
      // Public: any signed-in user may ask which synchronizers the participant is connected to.
      expect(
        within(await figureOf('Connected synchronizers')).getByText('1', { exact: true }),
      ).toBeVisible();
      const ledgerEnd = await sandboxSteps(sandbox, adminToken).ledgerEnd();
      expect(
        within(await figureOf('Ledger end')).getByText(String(ledgerEnd), { exact: true }),
      ).toBeVisible();

      // The owner's two transactions and its allocation, newest first, each opening its page.
      const latest = await within(await figureOf('Latest activity')).findByRole('list', {
        name: 'Latest transactions',
      });
      const links = within(latest).getAllByRole('link');
      expect(links.map((link) => link.getAttribute('href'))).toEqual([
        paths.transactions.to(seeded.split.updateId),
        paths.transactions.to(seeded.create.updateId),
        expect.stringMatching(/^\/transactions\?update=1220[0-9a-f]{64}$/),
      ]);
      expect(links[2]).toHaveAccessibleName('Open the topology transaction at offset 2');
      expect(links[0]).toHaveAccessibleName(
        `Open the transaction at offset ${String(seeded.split.offset)}`,
      );
      // Each says what happened, as the history and /live do.
      const items = within(latest).getAllByRole('listitem');
      expect(items[0]).toHaveTextContent(/Exercised Iou:Iou_Split.*created Iou ×2/);
      expect(items[1]).toHaveTextContent(/Created Iou/);
      expect(items[2]).toHaveTextContent(
        /Party owner-\S+ now hosted on participant sandbox with submission permission/,
      );
      // The admin changes are for admins.
      expect(
        within(card('Latest activity')).queryByRole('link', { name: 'Admin changes' }),
      ).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the ledger end moving after a command, and the new transaction in the latest activity',
    async () => {
      const sandbox = createSandbox();
      const steps = sandboxSteps(sandbox);
      const first = await steps.iouSplit();
      renderRoute('/', { sandbox });
      const ledgerEnd = await figureOf('Ledger end');
      expect(
        within(ledgerEnd).getByText(String(first.split.offset), { exact: true }),
      ).toBeVisible();
      expect(ledgerEnd).toHaveTextContent('Checked every 3 seconds');

      const second = await steps.iouSplit();
      const end = await steps.ledgerEnd();
      expect(end).toBeGreaterThan(first.split.offset);
      expect(
        await within(ledgerEnd).findByText(String(end), { exact: true }, POLL_WAIT),
      ).toBeVisible();
      expect(ledgerEnd).toHaveTextContent(
        new RegExp(`\\+${String(end - first.split.offset)} in the last \\d+ seconds?`),
      );

      const latest = within(card('Latest activity'));
      expect(
        await latest.findByRole(
          'link',
          { name: `Open the transaction at offset ${String(second.split.offset)}` },
          POLL_WAIT,
        ),
      ).toHaveAttribute('href', paths.transactions.to(second.split.updateId));
    },
    JOURNEY_TIMEOUT,
  );

  it('shows the pruning offset, and keeps the other cards when one is refused', async () => {
    renderRoute('/', {
      // The sandbox never prunes; answer as a participant that has, and refuse the package list.
      intercept: async (request, sandboxFetch) => {
        const { pathname } = new URL(request.url);
        if (pathname === '/v2/state/latest-pruned-offsets') {
          return Response.json({
            participantPrunedUpToInclusive: 41,
            allDivulgedContractsPrunedUpToInclusive: 41,
          });
        }
        if (pathname === '/v2/packages') {
          return Response.json(
            {
              code: 'NA',
              cause: 'A security-sensitive error has been received',
              correlationId: null,
              traceId: null,
              context: {},
              resources: [],
              errorCategory: -1,
              grpcCodeValue: 7,
              retryInfo: null,
              definiteAnswer: null,
            },
            { status: 403 },
          );
        }
        return sandboxFetch(request);
      },
    });
    allowConsole(/^ApiError/);

    const pruned = await figureOf('Pruned up to');
    expect(within(pruned).getByText('41', { exact: true })).toBeVisible();
    expect(pruned).toHaveTextContent('Updates at or below this offset can no longer be read');
    const packages = await figureOf('Packages');
    expect(within(packages).getByRole('heading', { name: 'You may not see this' })).toBeVisible();
    expect(within(await figureOf('Users')).getByText('1', { exact: true })).toBeVisible();
  });
});

describe('unknown pages', () => {
  it('says the page does not exist and links back to the overview', async () => {
    const { user } = renderRoute('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(screen.getByText('/no/such/page')).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Go to the participant overview' }));
    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
  });
});
