import { generateKeyPairSync } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';

// Whole-app journeys through two allocations and the party page; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 60_000;
/** An allocation, then the party page it opens: slow when the machine is busy. */
const PAGE = { timeout: 15_000 };

const keyFileField = () => screen.getByLabelText(/^Private key file/);
const pemFile = (pem: string, name: string) =>
  new File([pem], name, { type: 'application/x-pem-file' });

function privatePem(): string {
  return generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
}

describe('hosting an external party on another synchronizer', { timeout: JOURNEY_TIMEOUT }, () => {
  it(
    'allocates with a key file, then hosts the same party on the second synchronizer from its page',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const pem = privatePem();
      const view = renderRoute('/parties/new-external', { sandbox });
      const bodies: string[] = [];
      // Generate-topology and allocate, twice; the party page's reads (its hosting) come on top.
      let writes = 0;
      const urls: string[] = [];
      view.interceptNetwork(async (request, sandboxFetch) => {
        urls.push(request.url);
        if (request.method !== 'GET') {
          bodies.push(await request.clone().text());
          if (new URL(request.url).pathname.startsWith('/v2/parties/external/')) writes += 1;
        }
        return sandboxFetch(request);
      });
      await screen.findByRole('form', { name: 'Allocate external party' });

      // Step 1 on the first synchronizer, the key from the user's file.
      await view.user.type(screen.getByRole('textbox', { name: /^Party id hint/ }), 'roamer');
      const synchronizer = screen.getByRole('combobox', { name: /^Synchronizer/ });
      await waitFor(() => {
        expect(synchronizer).toBeEnabled();
      });
      await view.user.click(synchronizer);
      await view.user.click(await screen.findByRole('option', { name: /^local \(/ }));
      await view.user.click(screen.getByRole('radio', { name: 'Use my private key file' }));
      // Generating without a file asks for one.
      await view.user.click(screen.getByRole('button', { name: 'Generate topology' }));
      await waitFor(() => {
        expect(keyFileField()).toHaveAccessibleDescription(/Choose the party's private key file/);
      });
      await view.user.upload(keyFileField(), pemFile(pem, 'roamer.pem'));
      expect(await screen.findByText(/^Read roamer\.pem: fingerprint/)).toBeVisible();
      await view.user.click(screen.getByRole('button', { name: 'Generate topology' }));

      // Step 2 signs with the same key, not asking for it again.
      await screen.findByRole('form', { name: 'Sign and allocate external party' });
      expect(screen.getByRole('radio', { name: /^The key file chosen in step 1/ })).toBeChecked();
      const partyId = within(screen.getByRole('group', { name: 'Party id' })).getByText(
        /^roamer::1220[0-9a-f]{64}$/,
      ).textContent;
      await view.user.click(screen.getByRole('button', { name: 'Sign and allocate' }));
      expect(await screen.findByRole('heading', { name: 'roamer', level: 1 }, PAGE)).toBeVisible();
      const [local, global] = sandbox.state.synchronizerIds;
      expect(sandbox.state.hostingSynchronizers(partyId)).toEqual([local]);

      // The party page: hosted on local only, so it offers the other one.
      const hosting = await screen.findByRole('group', { name: 'Synchronizers' });
      expect(
        await within(hosting).findByText(/^local \(local::1220.*\): CONFIRMATION$/),
      ).toBeVisible();
      expect(within(hosting).queryByText(/^global /)).toBeNull();
      await view.user.click(
        await within(hosting).findByRole('link', { name: 'Host on another synchronizer…' }),
      );

      // Prefilled: the hint, the synchronizer not hosting it yet, the key file choice.
      await screen.findByRole('form', { name: 'Allocate external party' });
      expect(screen.getByRole('textbox', { name: /^Party id hint/ })).toHaveValue('roamer');
      await waitFor(() => {
        expect(
          screen.getByRole<HTMLInputElement>('combobox', { name: /^Synchronizer/ }).value,
        ).toMatch(/^global \(/);
      });
      expect(screen.getByRole('radio', { name: 'Use my private key file' })).toBeChecked();

      // Another key would make another party: refused, since this page hosts roamer.
      await view.user.upload(keyFileField(), pemFile(privatePem(), 'other.pem'));
      await waitFor(() => {
        expect(keyFileField()).toHaveAccessibleDescription(
          expect.stringContaining(`This key is not ${partyId}'s key`),
        );
      });
      // A file that is no key at all.
      await view.user.upload(keyFileField(), new File(['hello'], 'notes.txt'));
      await waitFor(() => {
        expect(keyFileField()).toHaveAccessibleDescription(/holds no private key/);
      });
      await view.user.upload(keyFileField(), pemFile(pem, 'roamer.pem'));
      expect(await screen.findByText(/^Read roamer\.pem: fingerprint/)).toBeVisible();
      expect(keyFileField()).not.toHaveAccessibleDescription(/holds no private key/);
      await view.user.click(screen.getByRole('button', { name: 'Generate topology' }));

      await screen.findByRole('form', { name: 'Sign and allocate external party' });
      expect(
        within(screen.getByRole('group', { name: 'Party id' })).getByText(partyId),
      ).toBeVisible();
      await view.user.click(screen.getByRole('button', { name: 'Sign and allocate' }));

      // The same party, now on both synchronizers.
      expect(await screen.findByRole('heading', { name: 'roamer', level: 1 }, PAGE)).toBeVisible();
      expect(decodeURIComponent(view.router.state.location.pathname)).toBe(`/parties/${partyId}`);
      expect(sandbox.state.hostingSynchronizers(partyId)).toEqual([local, global]);
      const both = await screen.findByRole('group', { name: 'Synchronizers' });
      expect(
        await within(both).findByText(/^global \(global::1220.*\): CONFIRMATION$/),
      ).toBeVisible();
      expect(within(both).getByText(/^local \(local::1220.*\): CONFIRMATION$/)).toBeVisible();
      expect(
        within(both).queryByRole('link', { name: 'Host on another synchronizer…' }),
      ).toBeNull();

      // The private key went nowhere: not in a request, a URL or storage.
      const secret = pem.replace(/-----[A-Z ]+-----|\s/g, '').slice(-44);
      expect(writes).toBe(4);
      for (const text of [...bodies, ...urls]) expect(text).not.toContain(secret);
      for (const storage of [localStorage, sessionStorage]) {
        const stored = Array.from({ length: storage.length }, (_, index) => {
          const key = storage.key(index) ?? '';
          return `${key}=${storage.getItem(key) ?? ''}`;
        });
        expect(stored.join('\n')).not.toContain(secret);
      }
    },
    JOURNEY_TIMEOUT,
  );
});
