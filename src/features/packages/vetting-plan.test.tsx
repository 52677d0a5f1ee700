import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shortenIdentifier as short } from '@/lib/text/format';
import { renderRoute } from '@/testing/render-route';
import { seedActiveContracts } from '@/testing/seed-contracts';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { fixtureDar, fixtureDarFile, seedDar } from '@/testing/seed-packages';
import { sandboxJson } from '@/testing/seed-parties';
import { sandboxSteps } from '@/testing/sandbox-steps';

const WORKFLOWS = fixtureDar('workflows');
const V1 = fixtureDar('upgradeV1').main;
const V2 = fixtureDar('upgradeV2').main;

const demoPackageId = (sandbox: Sandbox) => sandbox.state.demoPackageId;
const vettedIds = (sandbox: Sandbox) =>
  (
    sandbox.state.vetting.get(sandbox.state.synchronizerId, sandbox.state.participantId)
      ?.packages ?? []
  )
    .map((entry) => entry.packageId)
    .sort();
const planPath = (query: string) => `/packages/vetting-plan?${query}`;
const accepted = () =>
  screen.findByText(/^The participant accepts this plan/, {}, { timeout: 10_000 });

describe('vetting change planner', { timeout: 30_000 }, () => {
  it('flags an unvet of a package whose templates have active contracts, with a link to them', async () => {
    const sandbox = createSandbox();
    const alice = await sandboxSteps(sandbox).allocateParty('alice');
    await seedActiveContracts(sandbox, { owner: alice, count: 3 });
    const demo = demoPackageId(sandbox);
    renderRoute(planPath(`unvet=${demo}`), { sandbox });

    await accepted();
    const verdict = await screen.findByRole('article', { name: /^Verdict for sandbox-demo/ });
    expect(
      await within(verdict).findByLabelText(
        /^Active contracts of sandbox-demo/,
        {},
        { timeout: 10_000 },
      ),
    ).toHaveTextContent('3 active');
    expect(verdict).toHaveTextContent(/3 active contracts use its templates/);
    const link = within(verdict).getByRole('link', { name: /Iou$/ });
    expect(link.getAttribute('href')).toContain(`template=${encodeURIComponent(`${demo}:`)}`);
    // Nothing changed by looking.
    expect(vettedIds(sandbox)).toContain(demo);
  });

  it('flags a dependency break, explains the refusal and offers only the force flag it needs', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    const dependency = WORKFLOWS.packages.find((pkg) => pkg.packageId !== WORKFLOWS.main.packageId);
    if (!dependency) throw new Error('the workflows DAR has dependencies');
    const { user } = renderRoute(planPath(`unvet=${dependency.packageId}`), { sandbox });

    expect(
      await screen.findByText(
        /would leave a vetted package without a package it depends on/,
        {},
        { timeout: 10_000 },
      ),
    ).toBeVisible();
    expect(screen.getByText('TOPOLOGY_DEPENDENCIES_NOT_VETTED')).toBeVisible();
    const verdict = screen.getByRole('article', {
      name: new RegExp(`^Verdict for ${dependency.name}`),
    });
    expect(
      await within(verdict).findByText(/loses this dependency/, {}, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.queryByText(/Allow incompatible upgrades/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply vetting change' })).toBeDisabled();

    await user.click(
      screen.getByRole('button', { name: /Dry-run again with “Allow unvetted dependencies”/ }),
    );
    await accepted();
    expect(
      screen.getByText('UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Apply vetting change' })).toBeEnabled();
    expect(vettedIds(sandbox)).toContain(dependency.packageId);
  });

  it('shows which version each party is given before and after', async () => {
    const sandbox = createSandbox();
    const alice = await sandboxSteps(sandbox).allocateParty('alice');
    await seedDar(sandbox, 'upgradeV1');
    await seedDar(sandbox, 'upgradeV2');
    renderRoute(planPath(`unvet=${V2.packageId}&party=${encodeURIComponent(alice)}`), { sandbox });

    await accepted();
    const table = await screen.findByRole('table', {
      name: /Which version preferred-packages selects/,
    });
    const row = await within(table).findByRole('row', { name: /upgrade-demo/ });
    await waitFor(() => {
      expect(row).toHaveTextContent(
        `upgrade-demo${V2.version} (${short(V2.packageId)})${V1.version} (${short(V1.packageId)})`,
      );
    });
    expect(row).toHaveTextContent(`Moves to ${V1.version}`);
  });

  it('reports a change made between the dry run and Apply, and overwrites nothing', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    const demo = demoPackageId(sandbox);
    const { user } = renderRoute(planPath(`unvet=${demo}`), { sandbox });
    await accepted();

    // Another admin unvets the workflows main package meanwhile.
    await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
      changes: [
        {
          operation: { Unvet: { value: { packages: [{ packageId: WORKFLOWS.main.packageId }] } } },
        },
      ],
    });
    const elsewhere = vettedIds(sandbox);
    await user.click(screen.getByRole('button', { name: 'Apply vetting change' }));

    expect(await screen.findByText('The vetting changed meanwhile')).toBeVisible();
    expect(vettedIds(sandbox)).toEqual(elsewhere);
    expect(vettedIds(sandbox)).toContain(demo);
    await user.click(screen.getByRole('button', { name: 'Re-plan' }));
    await waitFor(() => {
      expect(screen.queryByText('The vetting changed meanwhile')).toBeNull();
    });
    await accepted();
    expect(screen.getByRole('button', { name: 'Apply vetting change' })).toBeEnabled();
  });

  it('adds a DAR’s packages to the plan, and unvetting them all together breaks nothing', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    const { user, container } = renderRoute(planPath(''), { sandbox });

    await screen.findByRole('button', { name: /Add a DAR’s packages/ });
    const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('the DAR picker has a file input');
    await user.upload(input, fixtureDarFile('workflows'));
    await user.click(await screen.findByRole('button', { name: 'Unvet those vetted' }));

    const planned = await screen.findByRole('table', { name: 'Planned changes' });
    expect(within(planned).getAllByRole('row')).toHaveLength(WORKFLOWS.packages.length + 1);
    await accepted();
    for (const verdict of screen.getAllByRole('article', { name: /^Verdict for / })) {
      expect(within(verdict).queryByText(/loses this dependency/)).toBeNull();
    }
  });

  it('applies the plan, then its inverse plan restores the vetting', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    const demo = demoPackageId(sandbox);
    const original = vettedIds(sandbox);
    const { user } = renderRoute(planPath(`unvet=${demo}`), { sandbox });
    await accepted();

    await user.click(screen.getByRole('button', { name: 'Apply vetting change' }));
    expect(await screen.findByText(/^Vetting changed on/)).toBeVisible();
    expect(vettedIds(sandbox)).not.toContain(demo);

    await user.click(screen.getByRole('link', { name: 'Plan the undo' }));
    expect(await screen.findByRole('heading', { name: /^Vet sandbox-demo/ })).toBeVisible();
    await accepted();
    await user.click(screen.getByRole('button', { name: 'Apply vetting change' }));
    expect(await screen.findByText(/^Vetting changed on/)).toBeVisible();
    expect(vettedIds(sandbox)).toEqual(original);
  });
});
