import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET, type NetworkIntercept } from '@/testing/sandbox-network';
import {
  fixtureDar,
  fixtureDarFile,
  incompatibleUpgradeDars,
  seedDar,
  type FixtureDarName,
} from '@/testing/seed-packages';
import { sandboxJson } from '@/testing/seed-parties';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';

const WORKFLOWS = fixtureDar('workflows');
const ILLFORMED = fixtureDar('illformed');
const MAIN_NAME = WORKFLOWS.main.name;
const TITLE = WORKFLOWS.title;
const COUNT = WORKFLOWS.packages.length;

/**
 * Holds the participant's answer to the upload, as a slow participant would, so the test can see
 * the state between "every byte sent" and "answered".
 */
function holdUploadAnswer() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const intercept: NetworkIntercept = async (request, sandboxFetch) => {
    if (request.method === 'POST' && new URL(request.url).pathname === '/v2/dars') await released;
    return sandboxFetch(request);
  };
  return { intercept, release };
}

/**
 * Matches the element whose whole text is `text` (or starts with it), though the text spans
 * elements: a file or package name in it is isolated in a `<bdi>` of its own.
 */
function wholeText(text: string, { isPrefix = false } = {}) {
  const matches = (element: Element) =>
    isPrefix ? element.textContent.startsWith(text) : element.textContent === text;
  return (_content: string, element: Element | null) =>
    element !== null && matches(element) && ![...element.children].some(matches);
}

async function chooseDar(user: ReturnType<typeof renderRoute>['user'], name: FixtureDarName) {
  await user.upload(await screen.findByLabelText('Choose a DAR file'), fixtureDarFile(name));
  return screen.findByRole('region', { name: 'In this DAR' });
}

describe('upload a DAR', { timeout: 20_000 }, () => {
  it('reads the DAR in the browser, uploads it with progress, and links to its package', async () => {
    const answer = holdUploadAnswer();
    const { user } = renderRoute('/packages/upload', { intercept: answer.intercept });

    const preview = await chooseDar(user, 'workflows');
    expect(await within(preview).findByRole('group', { name: 'Main package' })).toHaveTextContent(
      TITLE,
    );
    expect(within(preview).getByRole('group', { name: 'Daml-LF version' })).toHaveTextContent(
      '2.1',
    );
    expect(
      await within(preview).findByText(
        `${String(COUNT)} packages in this DAR, 0 already on this participant`,
      ),
    ).toBeVisible();
    expect(within(preview).getByRole('table', { name: 'Packages in this DAR' })).toHaveTextContent(
      `${MAIN_NAME} (main)`,
    );

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => {
      expect(bar).toHaveAttribute('aria-valuenow', '100');
    });
    expect(
      screen.getByText(
        new RegExp(
          `^Sent all ${(WORKFLOWS.size / 1024).toFixed(0)} KB; the participant is checking the DAR`,
        ),
      ),
    ).toBeVisible();

    answer.release();
    expect(
      await screen.findByText(/is stored on the participant and its packages are vetted/),
    ).toBeVisible();
    // At the top of the page, above the drop zone, and focused: where the user now looks.
    const uploaded = screen.getByRole('alert', { name: 'Uploaded' });
    expect(uploaded).toHaveFocus();
    expect(
      uploaded.compareDocumentPosition(screen.getByLabelText('Choose a DAR file')) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    // The preview now knows the packages are there.
    expect(
      await within(preview).findByText(
        `${String(COUNT)} packages in this DAR, ${String(COUNT)} already on this participant`,
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('link', { name: `Open ${TITLE}` }));
    expect(await screen.findByRole('heading', { name: TITLE, level: 1 })).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Back to packages' }));
    const table = await screen.findByRole('table', { name: 'Packages' });
    expect(within(table).getByRole('link', { name: MAIN_NAME })).toHaveAttribute(
      'href',
      `/packages/${WORKFLOWS.main.packageId}`,
    );
  });

  it('links the success to the packages list with the uploaded DAR first', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'replication');
    const { user, router } = renderRoute('/packages/upload', { sandbox });

    await chooseDar(user, 'workflows');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const uploaded = await screen.findByRole('alert', { name: 'Uploaded' });
    await user.click(within(uploaded).getByRole('link', { name: 'See it in the packages list' }));

    const table = await screen.findByRole('table', { name: 'Packages' });
    expect(router.state.location.search).toBe(`?uploaded=${WORKFLOWS.main.packageId}`);
    const [firstMain] = within(within(table).getAllByRole('rowgroup')[1] ?? table).getAllByRole(
      'rowheader',
    );
    expect(firstMain).toHaveTextContent(`${MAIN_NAME}Just uploaded`);
  });

  it('copies the upload as curl and as the Canton console command; Cancel goes back', async () => {
    const { user, router } = renderRoute('/packages/upload');

    await chooseDar(user, 'workflows');
    await user.click(screen.getByRole('switch', { name: /^Vet all packages/ }));
    await user.click(screen.getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
    const curl = await navigator.clipboard.readText();
    expect(curl).toMatch(/^curl -sS -X POST '.*\/v2\/dars\?vetAllPackages=false'/);
    expect(curl).toContain(`--data-binary '@${WORKFLOWS.file}'`);

    // The button says "Copied" for a moment.
    await user.click(await screen.findByRole('button', { name: 'Copy as…' }, { timeout: 3000 }));
    await user.click(await screen.findByRole('menuitem', { name: 'Canton console' }));
    expect(await navigator.clipboard.readText()).toBe(
      `participant.dars.upload(path = "${WORKFLOWS.file}", vetAllPackages = false)`,
    );

    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/packages');
    });
  });

  it('takes a dropped file like a picked one', async () => {
    renderRoute('/packages/upload');

    const zone = (await screen.findByText('Drop a DAR file here')).parentElement;
    if (!zone) throw new Error('the drop zone');
    fireEvent.drop(zone, { dataTransfer: { files: [fixtureDarFile('workflows')] } });

    expect(await screen.findByText(wholeText(`Chosen: ${WORKFLOWS.file}`))).toBeVisible();
    const preview = screen.getByRole('region', { name: 'In this DAR' });
    expect(await within(preview).findByRole('group', { name: 'Main package' })).toHaveTextContent(
      TITLE,
    );
  });

  it('validates first: the participant accepts one DAR and rejects another', async () => {
    const { user } = renderRoute('/packages/upload');

    await chooseDar(user, 'workflows');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByText(
        wholeText(`The participant would accept ${TITLE}.`, { isPrefix: true }),
      ),
    ).toBeVisible();

    await chooseDar(user, 'illformed');
    expect(screen.queryByText(/The participant would accept/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByText(wholeText(`The participant rejects ${ILLFORMED.file}:`)),
    ).toBeVisible();
    expect(screen.getByText('DAR_VALIDATION_ERROR')).toBeVisible();

    // Validation stored nothing.
    await user.click(screen.getByRole('link', { name: 'Back to packages' }));
    const table = await screen.findByRole('table', { name: 'Packages' });
    expect(within(table).queryByRole('link', { name: MAIN_NAME })).toBeNull();
  });

  it('shows which parties would move to a new version, next to the compatibility check', async () => {
    const sandbox = createSandbox();
    const alice = await sandboxSteps(sandbox).allocateParty('alice');
    await seedDar(sandbox, 'upgradeV1');
    const v1 = fixtureDar('upgradeV1').main;
    const v2 = fixtureDar('upgradeV2').main;
    const { user } = renderRoute('/packages/upload', { sandbox });

    await chooseDar(user, 'upgradeV2');
    const readiness = await screen.findByRole('region', { name: 'Upgrade readiness' });
    expect(readiness).toHaveTextContent(`${v1.name} ${v1.version} → ${v2.version}`);
    await user.type(
      within(readiness).getByRole('combobox', { name: 'Parties to check' }),
      `${alice}{Enter}`,
    );
    const row = await within(readiness).findByRole('row', { name: new RegExp(v1.name) });
    await waitFor(() => {
      expect(row).toHaveTextContent(`Moves to ${v2.version}`);
    });
    // Nothing was uploaded by looking.
    expect(sandbox.state.packages.all().some((pkg) => pkg.packageId === v2.packageId)).toBe(false);
  });

  it('validates first: an incompatible upgrade is refused with the reason, and nothing is stored', async () => {
    const sandbox = createSandbox();
    const { v1, v2 } = incompatibleUpgradeDars();
    const stored = await sandbox.fetch(
      new Request('http://localhost:3000/v2/dars', {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: v1.bytes,
      }),
    );
    expect(stored.status).toBe(200);
    const { user } = renderRoute('/packages/upload', { sandbox });

    await user.upload(
      await screen.findByLabelText('Choose a DAR file'),
      new File([v2.bytes], 'upgrade-demo-2.0.0.dar', { type: 'application/octet-stream' }),
    );
    await screen.findByRole('region', { name: 'In this DAR' });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByText(wholeText('The participant rejects upgrade-demo 2.0.0:')),
    ).toBeVisible();
    expect(screen.getByText('NOT_VALID_UPGRADE_PACKAGE')).toBeVisible();
    expect(
      screen.getByText(
        /cannot be an upgrade of .*\(upgrade-demo v1\.0\.0\)\. Reason: The upgraded template Asset is missing some of its original fields\./,
      ),
    ).toBeVisible();

    const { packageIds } = await sandboxJson<{ packageIds: string[] }>(
      sandbox,
      'GET',
      '/v2/packages',
    );
    expect(packageIds).toContain(v1.packageId);
    expect(packageIds).not.toContain(v2.packageId);
  });

  it('shows why an ill-formed DAR cannot be read, and the participant’s error on upload', async () => {
    const { user } = renderRoute('/packages/upload');

    const preview = await chooseDar(user, 'illformed');
    expect(await within(preview).findByText('A package is not valid Daml-LF')).toBeVisible();
    expect(preview).toHaveTextContent('Type checking failed: Mod:x is declared as Bool');

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(
      await screen.findByText(wholeText(`The participant rejected ${ILLFORMED.file}:`)),
    ).toBeVisible();
    const error = screen.getByRole('alert', { name: 'Invalid request' });
    expect(error).toHaveTextContent('Package validation failed.');
    expect(within(error).getByText('DAR_VALIDATION_ERROR')).toBeVisible();
    // The participant's trace id, to find the rejection in its logs (it sends no correlation id).
    expect(within(error).getByRole('button', { name: 'Copy trace id' })).toBeVisible();
    expect(error).toHaveTextContent('Type checking failed');
  });

  it('cancels an upload', async () => {
    // The participant never answers: only the cancel ends the upload.
    const { intercept } = holdUploadAnswer();
    const { user } = renderRoute('/packages/upload', { intercept });

    await chooseDar(user, 'workflows');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel upload' }));

    expect(await screen.findByText('Upload cancelled')).toBeVisible();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('cancels an upload still running when the page is left, so a return finds it idle', async () => {
    const { intercept } = holdUploadAnswer();
    const { user, router, queryClient } = renderRoute('/packages/upload', { intercept });

    await chooseDar(user, 'workflows');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
    expect(queryClient.isMutating()).toBe(1);

    await user.click(screen.getByRole('link', { name: 'Back to packages' }));
    expect(await screen.findByRole('table', { name: 'Packages' })).toBeVisible();
    await waitFor(() => {
      expect(queryClient.isMutating()).toBe(0);
    });

    await router.navigate('/packages/upload');
    expect(await screen.findByLabelText('Choose a DAR file')).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    await chooseDar(user, 'workflows');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('says so in place when the chosen file can no longer be read', async () => {
    const { user } = renderRoute('/packages/upload');
    const file = fixtureDarFile('workflows');
    // As a browser answers once the file was deleted or changed after it was chosen.
    Object.defineProperty(file, 'arrayBuffer', {
      value: () =>
        Promise.reject(new DOMException('The file could not be read.', 'NotReadableError')),
    });

    await user.upload(await screen.findByLabelText('Choose a DAR file'), file);
    await user.click(await screen.findByRole('button', { name: 'Upload' }));

    const error = await screen.findByRole('alert', { name: `Could not read ${WORKFLOWS.file}` });
    expect(error).toHaveTextContent('The browser could not read the file, so nothing was sent.');
    expect(error).toHaveTextContent('The file could not be read.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    expect(screen.getByLabelText('Choose a DAR file')).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(
      await screen.findByRole('alert', { name: `Could not read ${WORKFLOWS.file}` }),
    ).toBeVisible();
  });

  it('previews a DAR where the browser cannot hash, saying the package ids are not verified', async () => {
    // Plain http on a host other than localhost: no Web Crypto `subtle`, other parts stay.
    const webCrypto = globalThis.crypto;
    vi.stubGlobal('crypto', {
      getRandomValues: webCrypto.getRandomValues.bind(webCrypto),
      randomUUID: webCrypto.randomUUID.bind(webCrypto),
    });
    const { user } = renderRoute('/packages/upload');

    const preview = await chooseDar(user, 'workflows');
    const note = await within(preview).findByRole('alert', { name: 'Package ids not verified' });
    expect(note).toHaveTextContent(
      'Package ids not verified: the browser offers hashing only over https or on localhost.',
    );
    expect(within(preview).getByRole('group', { name: 'Main package' })).toHaveTextContent(TITLE);
    expect(
      await within(preview).findByText(
        `${String(COUNT)} packages in this DAR, 0 already on this participant`,
      ),
    ).toBeVisible();
  });

  it('asks for the synchronizer when the participant has several', async () => {
    const sandbox = createSandbox({ synchronizers: ['alpha', 'beta'] });
    const [, beta] = sandbox.state.synchronizerIds;
    const { user } = renderRoute('/packages/upload', { sandbox });

    await chooseDar(user, 'workflows');
    const select = await screen.findByRole('combobox', { name: 'Synchronizer' });
    expect(select).toHaveValue('alpha');
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'beta' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(/is stored on the participant/)).toBeVisible();

    const { vettedPackages } = await sandboxJson<{
      vettedPackages: { synchronizerId: string; packages: { packageId: string }[] }[];
    }>(sandbox, 'POST', '/v2/package-vetting/list', {});
    expect(
      vettedPackages
        .filter((entry) => entry.packages.some((pkg) => pkg.packageId === WORKFLOWS.main.packageId))
        .map((entry) => entry.synchronizerId),
    ).toEqual([beta]);
  });

  it('lets a plain user look inside a DAR, but not upload it, and says why', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    seedUsers(sandbox, 1, { prefix: 'reader' });
    await signInAs(sandbox, 'reader-0001');
    const { user } = renderRoute('/packages/upload', { sandbox });

    expect(await screen.findByText('Uploading needs a participant administrator')).toBeVisible();
    const preview = await chooseDar(user, 'workflows');
    expect(await within(preview).findByRole('group', { name: 'Main package' })).toHaveTextContent(
      TITLE,
    );
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Validate' })).not.toBeInTheDocument();
  });
});
