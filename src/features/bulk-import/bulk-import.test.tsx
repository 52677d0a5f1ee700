import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type NetworkIntercept } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedPartyRecords } from '@/testing/seed-parties';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';
import { captureDownloads } from '@/testing/capture-downloads';

const JWT_SECRET = 'bulk-import-test-secret';
// The issue's 200 rows: about 7 s in process on a shared 2-core machine (the journey prints it).
const ROWS = 200;
const JOURNEY_TIMEOUT = 20_000;

const HEADER = 'userId,displayName,partyHint,party,rights,isDeactivated';
const personId = (index: number) => `person-${String(index).padStart(4, '0')}`;

/**
 * `count` people, each with a new party; three bad rows: a user id with a space (row 5), a user id
 * that row 1 has already (row 10), and a hint whose party belongs to the default IdP (row 15).
 */
function peopleCsv(count: number): string {
  const lines = [HEADER];
  for (let index = 1; index <= count; index += 1) {
    let userId = personId(index);
    let hint = `${personId(index)}-party`;
    if (index === 5) userId = 'bad id';
    if (index === 10) userId = personId(1);
    if (index === 15) hint = 'default-desk';
    lines.push(`${userId},Person ${String(index)},${hint},,acts-as-own,false`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function openAsIdpAdmin() {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
  await signInAsIdentityProviderAdmin(sandbox);
  // A party of the default IdP: the IdP admin sees it, blinded, as not its own.
  seedPartyRecords(sandbox, [{ hint: 'default-desk', identityProviderId: '' }]);
  const view = renderRoute('/users/import', { sandbox });
  await screen.findByRole('heading', { name: 'Import users', level: 1 });
  return { ...view, sandbox };
}

const chooseFile = () => screen.findByLabelText('Choose an import file');
const file = (text: string, name = 'people.csv') => new File([text], name, { type: 'text/csv' });

/** Passes every request on, noting the writes (anything but GET). */
function recordWrites(writes: string[]): NetworkIntercept {
  return (request, sandboxFetch) => {
    if (request.method !== 'GET') writes.push(`${request.method} ${new URL(request.url).pathname}`);
    return sandboxFetch(request);
  };
}

describe('bulk import', () => {
  it(
    'plans every row, runs the good ones as an IdP admin, and a re-run changes nothing',
    async () => {
      const { user, sandbox, interceptNetwork } = await openAsIdpAdmin();
      const namespace = sandbox.state.namespace;
      const started = performance.now();

      await user.upload(await chooseFile(), file(peopleCsv(ROWS)));
      const plan = await screen.findByText(
        `${String(ROWS)} rows: ${String(ROWS - 3)} to create, 0 to complete with missing rights, 0 to skip, 2 invalid, 1 blocked.`,
        {},
        { timeout: 30_000 },
      );
      expect(plan).toBeVisible();
      const checked = performance.now() - started;

      await user.click(screen.getByRole('radio', { name: 'Needs attention' }));
      const table = screen.getByRole('table', { name: 'Import plan' });
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
        '5',
        '10',
        '15',
      ]);
      expect(rows[0]).toHaveTextContent('userId: A space is not allowed in a user id');
      expect(rows[1]).toHaveTextContent('userId: Duplicate: row 1 has this user id');
      expect(rows[2]).toHaveTextContent('Blocked');
      expect(rows[2]).toHaveTextContent(
        `Party default-desk::${namespace} exists already but is not a party of identity provider acme on this participant`,
      );

      await user.click(screen.getByRole('button', { name: 'Run import' }));
      expect(
        await screen.findByText(
          `Results: ${String(ROWS - 3)} created, 0 updated, 0 skipped, 3 failed.`,
          {},
          { timeout: 30_000 },
        ),
      ).toBeVisible();
      const firstRun = performance.now() - started;

      // Every good row: a user of acme with its own new party as primary party and CanActAs.
      const party = `${personId(2)}-party::${namespace}`;
      expect(sandbox.state.users.get(personId(2))).toMatchObject({
        identityProviderId: 'acme',
        primaryParty: party,
        annotations: { 'ledger-console/display-name': 'Person 2' },
      });
      expect(sandbox.state.users.rights(personId(2))).toEqual([{ kind: 'CanActAs', party }]);
      // The blocked row created nothing: no user without its party.
      expect(sandbox.state.users.get(personId(15))).toBeUndefined();
      expect(sandbox.state.users.get(personId(ROWS))).toBeDefined();

      const downloads = captureDownloads();
      // Each file by its name, once offered: the order of two clicks is not the test's subject.
      const offered = async (extension: string) => {
        await waitFor(() => {
          expect(downloads.names.some((name) => name.endsWith(extension))).toBe(true);
        });
        const index = downloads.names.findIndex((name) => name.endsWith(extension));
        return (await downloads.saved[index]?.text()) ?? '';
      };
      // The summary shows once every row has its result; the buttons wait for the run to end.
      const csvButton = screen.getByRole('button', { name: 'Download results (CSV)' });
      await waitFor(() => {
        expect(csvButton).toBeEnabled();
      });
      await user.click(csvButton);
      const csv = await offered('.csv');
      await user.click(screen.getByRole('button', { name: 'Download results (JSON)' }));
      const json = await offered('.json');
      const lines = csv.split('\r\n');
      expect(lines[0]).toBe('row,userId,party,outcome,reason');
      expect(lines).toHaveLength(ROWS + 2);
      expect(lines[1]).toMatch(/^1,person-0001,person-0001-party::1220[0-9a-f]{64},created,/);
      // An invalid row has no plan: its party is the hint as written.
      expect(lines[5]).toMatch(
        /^5,bad id,person-0005-party,failed,"userId: A space is not allowed/,
      );
      expect(lines[10]).toContain('failed,userId: Duplicate: row 1 has this user id');
      const results = JSON.parse(json) as { row: number; outcome: string; reason: string }[];
      expect(results.find((result) => result.row === 15)).toMatchObject({
        outcome: 'failed',
        reason: expect.stringContaining('is not a party of identity provider acme') as unknown,
      });

      // The same file again: every good row is skipped, and nothing is written.
      const writes: string[] = [];
      interceptNetwork(recordWrites(writes));
      await user.upload(await chooseFile(), file(peopleCsv(ROWS)));
      expect(
        await screen.findByText(
          `${String(ROWS)} rows: 0 to create, 0 to complete with missing rights, ${String(ROWS - 3)} to skip, 2 invalid, 1 blocked.`,
          {},
          { timeout: 30_000 },
        ),
      ).toBeVisible();
      // Nothing can run: the button is off and says why beside it.
      expect(screen.getByRole('button', { name: 'Run import' })).toBeDisabled();
      expect(
        screen.getByText(
          `Nothing to run: of ${String(ROWS)} rows, 2 invalid, 1 blocked, ${String(ROWS - 3)} already onboarded. Fix the file (each row’s Details say what is wrong) and choose it again.`,
        ),
      ).toBeVisible();
      expect(writes).toEqual([]);
      // Measured so the e2e can take the 200 rows; printed, not asserted.
      console.info(
        `bulk import of ${String(ROWS)} rows in process: checked in ${String(Math.round(checked))} ms, first run done at ${String(Math.round(firstRun))} ms`,
      );
    },
    JOURNEY_TIMEOUT * 2,
  );

  it(
    'undoes a row whose party fails, leaves no orphan when a hint is taken after planning, and retries failed rows',
    async () => {
      const { user, sandbox, interceptNetwork } = await openAsIdpAdmin();
      const namespace = sandbox.state.namespace;
      const rows = [HEADER];
      for (let index = 1; index <= 6; index += 1) {
        rows.push(`${personId(index)},,${personId(index)}-party,,acts-as-own,`);
      }
      await user.upload(await chooseFile(), file(`${rows.join('\n')}\n`));
      await screen.findByText(
        '6 rows: 6 to create, 0 to complete with missing rights, 0 to skip, 0 invalid, 0 blocked.',
      );

      // Between plan and run: row 3's hint is taken in the default IdP, and the participant
      // fails row 5's allocation once.
      seedPartyRecords(sandbox, [{ hint: `${personId(3)}-party`, identityProviderId: '' }]);
      let failures = 1;
      interceptNetwork(async (request, sandboxFetch) => {
        if (request.method === 'POST' && new URL(request.url).pathname === '/v2/parties') {
          const body = (await request.clone().json()) as { partyIdHint?: string };
          if (body.partyIdHint === `${personId(5)}-party` && failures > 0) {
            failures -= 1;
            return Response.json(
              { code: 'UNAVAILABLE', cause: 'The participant is busy', grpcCodeValue: 14 },
              { status: 503 },
            );
          }
        }
        return sandboxFetch(request);
      });
      await user.click(screen.getByRole('button', { name: 'Run import' }));
      expect(
        await screen.findByText('Results: 4 created, 0 updated, 0 skipped, 2 failed.'),
      ).toBeVisible();

      // Both failed rows created their user first and deleted it again: no orphan.
      expect(sandbox.state.users.get(personId(3))).toBeUndefined();
      expect(sandbox.state.users.get(personId(5))).toBeUndefined();
      const table = screen.getByRole('table', { name: 'Import plan' });
      const row3 = within(table).getAllByRole('row')[3];
      expect(row3).toHaveTextContent(`Allocate party ${personId(3)}-party::${namespace}`);
      expect(row3).toHaveTextContent(`Undone: Delete user ${personId(3)}`);
      expect(row3).toHaveTextContent('No party was created by this run.');

      // Retry checks again: row 3's hint is now another IdP's party (blocked), row 5 succeeds.
      await user.click(screen.getByRole('button', { name: 'Retry failed (2)' }));
      expect(
        await screen.findByText('Results: 5 created, 0 updated, 0 skipped, 1 failed.'),
      ).toBeVisible();
      expect(sandbox.state.users.get(personId(5))).toMatchObject({
        primaryParty: `${personId(5)}-party::${namespace}`,
      });
      expect(within(table).getAllByRole('row')[3]).toHaveTextContent(
        'exists already but is not a party of identity provider acme',
      );
      expect(sandbox.state.users.get(personId(3))).toBeUndefined();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'on cancel lets the rows in flight finish and starts no more; resume runs the rest',
    async () => {
      const { user, sandbox, interceptNetwork } = await openAsIdpAdmin();
      const rows = [HEADER];
      for (let index = 1; index <= 12; index += 1) {
        rows.push(`${personId(index)},,${personId(index)}-party,,reads-own,`);
      }
      await user.upload(await chooseFile(), file(`${rows.join('\n')}\n`));
      await screen.findByText(
        '12 rows: 12 to create, 0 to complete with missing rights, 0 to skip, 0 invalid, 0 blocked.',
      );

      // Creating users waits until the test lets it go, so the rows in flight can be counted.
      const held: (() => void)[] = [];
      let holding = true;
      interceptNetwork((request, sandboxFetch) => {
        if (holding && request.method === 'POST' && new URL(request.url).pathname === '/v2/users') {
          return new Promise((resolve) => {
            held.push(() => {
              resolve(sandboxFetch(request));
            });
          });
        }
        return sandboxFetch(request);
      });
      await user.click(screen.getByRole('button', { name: 'Run import' }));
      await waitFor(() => {
        expect(held).toHaveLength(4);
      });
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      holding = false;
      for (const release of held) release();

      expect(
        await screen.findByText('Results: 4 created, 0 updated, 0 skipped, 0 failed.'),
      ).toBeVisible();
      expect(screen.getByRole('alert', { name: 'Cancelled' })).toBeVisible();
      expect(sandbox.state.users.get(personId(4))).toBeDefined();
      expect(sandbox.state.users.get(personId(5))).toBeUndefined();

      await user.click(screen.getByRole('button', { name: 'Resume (8 not run)' }));
      expect(
        await screen.findByText('Results: 12 created, 0 updated, 0 skipped, 0 failed.'),
      ).toBeVisible();
      // reads-own: the party is allocated without `userId`, so no CanActAs comes with it.
      const party = `${personId(12)}-party::${sandbox.state.namespace}`;
      expect(sandbox.state.users.rights(personId(12))).toEqual([{ kind: 'CanReadAs', party }]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'as a participant admin: refuses a broken file as a whole, imports JSON into the default IdP and grants an existing user only what it lacks',
    async () => {
      const sandbox = createSandbox();
      const view = renderRoute('/users', { sandbox });
      await view.user.click(await screen.findByRole('link', { name: 'Import users' }));
      expect(await screen.findByText(/into the default identity provider/)).toBeVisible();

      const saved = captureDownloads().saved;
      await view.user.click(screen.getByRole('button', { name: 'Download CSV template' }));
      const template = (await saved[0]?.text()) ?? '';
      expect(template.split('\r\n')[0]).toBe(`${HEADER},externalPublicKey`);
      expect(template).toContain(`trading-desk::${sandbox.state.namespace}`);

      await view.user.upload(await chooseFile(), file('userId,nickname\r\nx,y\r\n'));
      expect(
        await screen.findByRole('alert', { name: 'This file cannot be imported' }),
      ).toHaveTextContent('Unknown column "nickname" in the header');

      // ops-2 exists already, on its party, and lacks one of the rights the file gives it.
      const steps = sandboxSteps(sandbox);
      const ops2Party = await steps.allocateParty('ops-2');
      await steps.createUser('ops-2', {
        primaryParty: ops2Party,
        rights: [{ kind: 'CanActAs', party: ops2Party }],
      });
      const json = JSON.stringify([
        {
          userId: 'ops-1',
          partyHint: 'ops-1',
          rights: ['actAs', 'readAsAnyParty'],
          isDeactivated: true,
        },
        { userId: 'ops-2', party: ops2Party, rights: 'actAs;readAs' },
      ]);
      await view.user.upload(await chooseFile(), file(json, 'people.json'));
      await screen.findByText(
        '2 rows: 1 to create, 1 to complete with missing rights, 0 to skip, 0 invalid, 0 blocked.',
      );
      expect(screen.queryByRole('alert', { name: 'This file cannot be imported' })).toBeNull();
      await view.user.click(screen.getByRole('button', { name: 'Run import' }));
      expect(
        await screen.findByText('Results: 1 created, 1 updated, 0 skipped, 0 failed.'),
      ).toBeVisible();
      const party = `ops-1::${sandbox.state.namespace}`;
      expect(sandbox.state.users.get('ops-1')).toMatchObject({
        identityProviderId: '',
        primaryParty: party,
        isDeactivated: true,
      });
      expect(sandbox.state.users.rights('ops-1')).toEqual(
        expect.arrayContaining([
          { kind: 'CanActAs', party },
          { kind: 'CanReadAsAnyParty', party: '' },
        ]),
      );
      expect(sandbox.state.users.rights('ops-2')).toEqual(
        expect.arrayContaining([
          { kind: 'CanActAs', party: ops2Party },
          { kind: 'CanReadAs', party: ops2Party },
        ]),
      );
      const row2 = within(screen.getByRole('table', { name: 'Import plan' })).getAllByRole(
        'row',
      )[2];
      expect(row2).toHaveTextContent('Updated');
      expect(row2).toHaveTextContent(`Grant Read as ${ops2Party} to ops-2.`);
    },
    JOURNEY_TIMEOUT,
  );
});

describe('bulk import without a rights column, and a file where nothing can run', () => {
  it(
    'gives each user the one-person form’s default rights and says so in the plan',
    async () => {
      const { user, sandbox } = await openAsIdpAdmin();
      const namespace = sandbox.state.namespace;
      await user.upload(
        await chooseFile(),
        file('userId,displayName,partyHint\r\nann,Ann,ann-party\r\nbob,Bob,bob-party\r\n'),
      );
      expect(
        await screen.findByText(
          '2 rows: 2 to create, 0 to complete with missing rights, 0 to skip, 0 invalid, 0 blocked.',
          {},
          { timeout: 10_000 },
        ),
      ).toBeVisible();
      expect(screen.getByRole('alert', { name: 'Default rights' })).toHaveTextContent(
        'No rights column: each user gets “Acts as own party”, what the one-person onboarding form starts with.',
      );
      // The party column shows the id shortened, whole on hover, with its own copy button.
      const table = screen.getByRole('table', { name: 'Import plan' });
      const annParty = `ann-party::${namespace}`;
      expect(within(table).getByTitle(annParty)).toBeVisible();
      expect(within(table).getByRole('button', { name: 'Copy party of row 1' })).toBeVisible();

      await user.click(
        await screen.findByRole('button', { name: 'Run import' }, { timeout: 10_000 }),
      );
      expect(
        await screen.findByText(
          'Results: 2 created, 0 updated, 0 skipped, 0 failed.',
          {},
          {
            timeout: 10_000,
          },
        ),
      ).toBeVisible();
      expect(sandbox.state.users.rights('ann')).toEqual([{ kind: 'CanActAs', party: annParty }]);
      expect(sandbox.state.users.rights('bob')).toEqual([
        { kind: 'CanActAs', party: `bob-party::${namespace}` },
      ]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'disables Run, saying why, when every row is invalid',
    async () => {
      const writes: string[] = [];
      const { user, interceptNetwork } = await openAsIdpAdmin();
      interceptNetwork(recordWrites(writes));
      await user.upload(
        await chooseFile(),
        file(`${HEADER}\r\nbad id,,ann,,readAs,\r\ncid,,,,readAs,\r\n`),
      );
      expect(
        await screen.findByText(
          '2 rows: 0 to create, 0 to complete with missing rights, 0 to skip, 2 invalid, 0 blocked.',
          {},
          { timeout: 10_000 },
        ),
      ).toBeVisible();
      expect(
        await screen.findByRole('button', { name: 'Run import' }, { timeout: 10_000 }),
      ).toBeDisabled();
      expect(
        screen.getByText(
          'Nothing to run: of 2 rows, 2 invalid. Fix the file (each row’s Details say what is wrong) and choose it again.',
        ),
      ).toBeVisible();
      // The verdict badges carry their whole word.
      const table = screen.getByRole('table', { name: 'Import plan' });
      expect(within(table).getAllByText('Invalid')).toHaveLength(2);
      expect(writes).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
