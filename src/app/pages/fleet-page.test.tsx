import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { writeAccessToken } from '@/api/access-token';
import { consoleParticipantList } from '@/testing/console-server';
import { renderFleetRoute } from '@/testing/render-route';
import {
  createSandboxFleet,
  hs256Token,
  TEST_SECRET,
  type SandboxOptions,
} from '@/testing/sandbox-network';
import { seedExternalParty } from '@/testing/seed-external-parties';
import { seedParties } from '@/testing/seed-parties';

/** A sandbox fleet of `count` participants, closed when the test ends. */
function fleetOf(count: number, options: Omit<SandboxOptions, 'participantName'> = {}) {
  const fleet = createSandboxFleet({ participants: count, ...options });
  onTestFinished(() => {
    fleet.close();
  });
  return fleet.participants.map((member) => ({ name: member.name, sandbox: member }));
}

const names = (count: number) =>
  Array.from({ length: count }, (_, index) => `participant${String(index + 1)}`);

describe('the participant switcher', () => {
  it('names the page’s participant, lists the others, and leads to the same page on each', async () => {
    const members = fleetOf(3);
    const { user } = renderFleetRoute('/users?idp=corp#top', members, {
      console: await consoleParticipantList(names(3)),
    });

    const switcher = await screen.findByRole('button', {
      name: 'participant1 (participant; switch participant)',
    });
    await user.click(switcher);
    const list = await screen.findByRole('navigation', { name: 'Participants' });
    const participantLinks = within(list)
      .getAllByRole('link')
      .filter((link) => /^participant\d/.test(link.textContent));
    expect(participantLinks.map((link) => link.textContent)).toEqual([
      'participant1 (default)',
      'participant2',
      'participant3',
    ]);
    expect(participantLinks[0]).toHaveAttribute('aria-current', 'page');
    expect(participantLinks[1]).not.toHaveAttribute('aria-current');
    // A document navigation to the same page on the other participant.
    expect(participantLinks[1]).toHaveAttribute('href', '/p/participant2/users?idp=corp#top');
    expect(within(list).getByRole('link', { name: 'Fleet overview' })).toBeVisible();
  });

  it('is not there for a console of one participant', async () => {
    const members = fleetOf(1);
    const list = await consoleParticipantList(['sandbox']);
    let isListRead = false;
    const { queryClient } = renderFleetRoute('/', members, {
      console: async (request) => {
        const answer = await list(request);
        if (answer) isListRead = true;
        return answer;
      },
    });
    await waitFor(() => {
      expect(isListRead).toBe(true);
    });
    await waitFor(() => {
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(await screen.findByRole('link', { name: 'Overview' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Fleet' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /switch participant/ })).not.toBeInTheDocument();
  });
});

describe('the fleet overview', () => {
  it('shows each participant from its own API, and the parties hosted on more than one', async () => {
    const members = fleetOf(3);
    const [first, second] = members.map((member) => member.sandbox);
    if (!first || !second) throw new Error('fleet of 3');
    await seedParties(second, ['dana']);
    const shared = await seedExternalParty(first, 'shared', {
      otherConfirmingParticipantUids: [second.state.participantId],
    });
    const paths: string[] = [];
    const { user } = renderFleetRoute('/', members, {
      console: await consoleParticipantList(names(3)),
      intercept: (request, forward) => {
        paths.push(new URL(request.url).pathname);
        return forward(request);
      },
    });
    await user.click(await screen.findByRole('link', { name: 'Fleet' }));

    for (const member of members) {
      const card = await screen.findByRole('region', { name: member.name });
      expect(await within(card).findByRole('group', { name: 'Participant id' })).toHaveTextContent(
        member.sandbox.state.participantId.slice(0, 12),
      );
      expect(within(card).getByLabelText('Health: Live · Ready')).toBeVisible();
    }
    expect(paths).toContain('/participants/participant3/v2/state/ledger-end');
    expect(paths).toContain('/participants/participant2/v2/parties/participant-id');

    const table = await screen.findByRole('table', {
      name: 'Parties hosted on more than one participant',
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('participant1, participant2');
    expect(rows[0]).toHaveTextContent(shared.party.slice(0, 6));
  });

  it('says which participant is not signed in to and which is unreachable, and shows the others', async () => {
    const members = fleetOf(3, { auth: 'jwt', jwtSecret: TEST_SECRET });
    const [first] = members;
    if (!first) throw new Error('fleet of 3');
    // Signed in on participant1 only: a token for its audience (the default's, unprefixed keys).
    writeAccessToken(
      await hs256Token('participant_admin', {
        claims: {
          aud: `https://daml.com/jwt/aud/participant/${first.sandbox.state.participantId}`,
        },
      }),
    );
    const sent: { path: string; hasToken: boolean }[] = [];
    renderFleetRoute('/fleet', members, {
      console: await consoleParticipantList(names(3)),
      intercept: (request, forward) => {
        const path = new URL(request.url).pathname;
        sent.push({ path, hasToken: request.headers.has('authorization') });
        // participant3's node is down: the network fails as a browser's fetch would.
        if (path.startsWith('/participants/participant3/')) {
          return Promise.reject(new TypeError('Failed to fetch'));
        }
        return forward(request);
      },
    });

    const one = await screen.findByRole('region', { name: 'participant1' });
    expect(await within(one).findByRole('group', { name: 'Participant id' })).toHaveTextContent(
      first.sandbox.state.participantId.slice(0, 12),
    );
    const two = screen.getByRole('region', { name: 'participant2' });
    const signIn = await within(two).findByRole('link', { name: 'Sign in on participant2' });
    expect(signIn).toHaveAttribute('href', '/p/participant2/sign-in?from=%2Ffleet');
    expect(within(two).getByText('Not signed in on participant2')).toBeVisible();
    const three = screen.getByRole('region', { name: 'participant3' });
    expect(await within(three).findByText('participant3 is unreachable')).toBeVisible();
    expect(within(three).getByLabelText('Health: Unreachable')).toBeVisible();

    // participant1's token went to participant1 only.
    expect(
      sent
        .filter((request) => request.path.startsWith('/participants/participant1/'))
        .some((r) => r.hasToken),
    ).toBe(true);
    expect(
      sent
        .filter(
          (request) =>
            !request.path.startsWith('/participants/participant1/') &&
            request.path.startsWith('/participants/'),
        )
        .every((request) => !request.hasToken),
    ).toBe(true);
  });
});
