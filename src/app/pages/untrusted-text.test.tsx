import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { fixtureDar } from '@/testing/seed-packages';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedActiveContracts } from '@/testing/seed-contracts';
import { seedRightsHolders } from '@/testing/seed-party-access';
import { seedPartyRecords } from '@/testing/seed-parties';
import { signInAs } from '@/testing/sign-in-as';

// Whole-app journeys with several requests each; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;
const JWT_SECRET = 'untrusted-text-test-secret';

/** Shows as "exe.png" where the override is obeyed. */
const SPOOFED = '\u202Egnp.exe\u202C';
const REVEALED = '⟨U+202E⟩gnp.exe⟨U+202C⟩';
const RAW_BIDI = /[\u202A-\u202E\u2066-\u2069]/u;

/** The element showing exactly `text`, which must be a `<bdi>` (isolated from its line). */
function isolatedText(container: HTMLElement, text: string): HTMLElement {
  const element = within(container).getByText(text);
  expect(element.tagName).toBe('BDI');
  return element;
}

/** A JWT segment: UTF-8 JSON in base64url, as an identity provider would encode it. */
const base64Url = (value: unknown) =>
  btoa(String.fromCodePoint(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');

describe(
  'text from the ledger or a token cannot spoof the page',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    it('shows an annotation’s override characters on the read-only party page, isolated', async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
      const [alice] = seedPartyRecords(sandbox, [
        { hint: 'alice', annotations: { file: SPOOFED } },
      ]);
      const party = alice ?? '';
      seedRightsHolders(sandbox, [{ userId: 'reader', rights: [{ kind: 'CanReadAs', party }] }]);
      await signInAs(sandbox, 'reader');
      renderRoute(`/parties/${encodeURIComponent(party)}`, { sandbox });

      const annotation = await screen.findByRole('group', { name: 'file' });
      isolatedText(annotation, REVEALED);
      expect(annotation.textContent).not.toMatch(RAW_BIDI);
    });

    it('says under an annotation input what hidden characters its value holds', async () => {
      const sandbox = createSandbox();
      const [alice] = seedPartyRecords(sandbox, [
        { hint: 'alice', annotations: { file: SPOOFED } },
      ]);
      renderRoute(`/parties/${encodeURIComponent(alice ?? '')}`, { sandbox });

      const input = await screen.findByRole('textbox', { name: 'Annotation 1 value' });
      // The input keeps the value as it is, so that saving does not change it.
      expect(input).toHaveValue(SPOOFED);
      expect(input).toHaveAccessibleDescription(`Holds hidden characters: ${REVEALED}`);
    });

    it('shows a kid’s override in the token doctor, isolated from the rest of its sentence', async () => {
      const kid = 'key-\u202E1-yek';
      const header = base64Url({ alg: 'RS256', typ: 'JWT', kid });
      const payload = base64Url({ sub: 'alice', aud: 'https://daml.com/jwt/aud/participant/x' });
      const { user } = renderRoute('/token-doctor');

      await user.click(await screen.findByRole('textbox', { name: 'Token' }));
      await user.paste(`${header}.${payload}.c2lnbmF0dXJl`);
      await user.click(screen.getByRole('button', { name: 'Examine token' }));

      const list = await screen.findByRole('list', { name: 'Verdicts' }, { timeout: 10_000 });
      const verdict = within(list).getByRole('listitem', { name: 'Key id and type (kid, typ)' });
      const value = isolatedText(verdict, 'key-⟨U+202E⟩1-yek');
      expect(value.parentElement?.textContent).toBe(
        'In the header: typ is "JWT", kid is "key-⟨U+202E⟩1-yek".',
      );
      // The sentence goes on after the kid, outside its isolate: the override can reorder none of it.
      expect(value.nextSibling?.textContent).toBe('".');
      expect(verdict.textContent).not.toMatch(RAW_BIDI);
    });

    it('shows a user id’s override in the users table, isolated in its link', async () => {
      const sandbox = createSandbox();
      const id = 'admin\u202Enimda';
      seedRightsHolders(sandbox, [{ userId: id, rights: [] }]);
      renderRoute('/users', { sandbox });

      const table = await screen.findByRole('table', { name: 'Users' });
      const shown = 'admin⟨U+202E⟩nimda';
      const link = await within(table).findByRole('link', { name: shown });
      isolatedText(link, shown);
      expect(link).toHaveAttribute('title', shown);
      expect(table.textContent).not.toMatch(RAW_BIDI);
    });

    it('shows a DAR file name’s override where the file is chosen and read', async () => {
      const dar = fixtureDar('workflows');
      const file = new File([dar.bytes()], `${SPOOFED}.dar`, {
        type: 'application/octet-stream',
      });
      const { user } = renderRoute('/packages/upload');

      await user.upload(await screen.findByLabelText('Choose a DAR file'), file);
      const chosen = await screen.findByText('Chosen:', { exact: false });
      isolatedText(chosen, `${REVEALED}.dar`);
      expect(chosen.textContent).toBe(`Chosen: ${REVEALED}.dar`);
      // The preview names the DAR by its main package once read: the name is the archive's.
      const preview = await screen.findByRole('region', { name: 'In this DAR' });
      expect(await within(preview).findByRole('group', { name: 'Main package' })).toHaveTextContent(
        dar.title,
      );
      expect(document.body.textContent).not.toMatch(RAW_BIDI);
    });

    it('shows a Daml Text value’s override in the active contracts and the transaction', async () => {
      const sandbox = createSandbox();
      const owner = await sandboxSteps(sandbox).allocateFreshParty('holder');
      const currency = '\u202EDSU\u202C';
      const { updateIds } = await seedActiveContracts(sandbox, { owner, count: 1, currency });

      const contracts = renderRoute(`/contracts?party=${encodeURIComponent(owner)}`, { sandbox });
      const table = await screen.findByRole('table', { name: 'Active contracts' });
      await waitFor(() => {
        isolatedText(table, '⟨U+202E⟩DSU⟨U+202C⟩');
      });
      expect(table.textContent).not.toMatch(RAW_BIDI);
      contracts.unmount();

      renderRoute(`/transactions?update=${encodeURIComponent(updateIds[0] ?? '')}`, { sandbox });
      const outline = await screen.findByRole('tree', { name: 'Transaction outline' });
      await waitFor(() => {
        expect(within(outline).getAllByText('⟨U+202E⟩DSU⟨U+202C⟩')[0]?.tagName).toBe('BDI');
      });
      expect(outline.textContent).not.toMatch(RAW_BIDI);
    });
  },
);
