import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeAccessToken } from '@/api/access-token';
import { TRANSACTION_ENDPOINT, TREE_ENDPOINT, type JsCommands } from '@/api/commands';
import {
  fillCreateAsJson,
  fillSubmitter,
  IOU,
  openComposerAt,
  paste,
  replace,
} from '@/testing/composer-steps';
import { renderRoute } from '@/testing/render-route';
import { MAX_OPEN_SUBMISSIONS } from './composer';
import { FRAME_MIN_HEIGHT, FRAME_MIN_SHARE } from '@/lib/transaction-tree/viewport';
import {
  createSandbox,
  hs256Token,
  TEST_SECRET,
  type NetworkIntercept,
  type Sandbox,
} from '@/testing/sandbox-network';
import { FORM_TYPES_PACKAGE, seedFormTypesPackage } from '@/testing/seed-composer-packages';
import { seedRightsHolders } from '@/testing/seed-party-access';
import { seedParties } from '@/testing/seed-parties';
import { mintToken, signInAs } from '@/testing/sign-in-as';

// Whole-app journeys through a large form; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 40_000;

async function openComposer(options: { intercept?: NetworkIntercept; sandbox?: Sandbox } = {}) {
  const sandbox = options.sandbox ?? createSandbox();
  const [alice = ''] = await seedParties(sandbox, ['alice']);
  const { sent: submitted, ...view } = await openComposerAt(sandbox, {
    intercept: options.intercept,
  });
  return { ...view, alice, submitted };
}

type Iou = { issuer: string; owner: string; currency: string; amount: string };

/** An Iou create, as JSON, without observers. */
function fillIouCreate(user: UserEvent, iou: Iou) {
  return fillCreateAsJson(user, IOU, { ...iou, observers: [] });
}

/** A create of `templateId` with `argument` as JSON, submitted as `party`. */
async function submitCreate(user: UserEvent, party: string, templateId: string, argument: unknown) {
  await fillCreateAsJson(user, templateId, argument);
  await fillSubmitter(user, party);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

/** An Iou of `owner`'s without observers (the owner issues it unless said), submitted as owner. */
function submitIouCreate(
  user: UserEvent,
  owner: string,
  { issuer = owner, currency, amount }: { issuer?: string; currency: string; amount: string },
) {
  return submitCreate(user, owner, IOU, { issuer, owner, currency, amount, observers: [] });
}

/** The failure of a submission in `scope` (the whole page unless given). */
function notSubmitted(scope: Pick<typeof screen, 'findByRole'> = screen) {
  return scope.findByRole('alert', { name: 'Not submitted' }, { timeout: 10_000 });
}

/** A jwt-mode sandbox with `alice` and users that may act as her. */
async function tradingSandbox(traders: readonly string[]) {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
  const admin = await mintToken(sandbox, 'participant_admin');
  const [alice = ''] = await seedParties(sandbox, ['alice'], { token: admin });
  seedRightsHolders(
    sandbox,
    traders.map((userId) => ({ userId, rights: [{ kind: 'CanActAs', party: alice }] })),
  );
  return { sandbox, alice };
}

function argumentJson(name = 'Template arguments JSON'): unknown {
  const json = screen.getByRole<HTMLTextAreaElement>('textbox', { name });
  return JSON.parse(json.value);
}

/** The words a sighted user reads on an element: its text without the visually hidden parts. */
function shownText(element: HTMLElement): string {
  const copy = element.cloneNode(true) as HTMLElement;
  for (const hidden of copy.querySelectorAll('.mantine-VisuallyHidden-root')) hidden.remove();
  return copy.textContent.trim();
}

function resultRegion() {
  return screen.findByRole('region', { name: 'Result' }, { timeout: 10_000 });
}

describe('command composer', () => {
  it(
    'sizes the result graph to its tree and opens it full screen, kept in the URL',
    async () => {
      const { user, alice, router } = await openComposer();
      await submitIouCreate(user, alice, { currency: 'USD', amount: '100' });
      const result = await resultRegion();
      const graph = await within(result).findByRole('region', { name: 'Transaction graph' });
      // One node: the frame's minimum for this window (jsdom's is 768 px tall), not 560 px.
      const view = graph.closest<HTMLElement>('[style*="--transaction-pane-height"]');
      expect(view?.style.getPropertyValue('--transaction-pane-height')).toBe(
        `${String(Math.max(FRAME_MIN_HEIGHT, Math.round(window.innerHeight * FRAME_MIN_SHARE)))}px`,
      );

      await user.click(within(result).getByRole('button', { name: 'Full screen' }));
      const dialog = await screen.findByRole('dialog', { name: /^Transaction at offset \d+$/ });
      expect(within(dialog).getByRole('region', { name: 'Transaction graph' })).toBe(graph);
      await waitFor(() => {
        expect(router.state.location.search).toBe('?fullscreen=1');
      });
      await user.click(within(dialog).getByRole('button', { name: 'Exit full screen' }));
      await waitFor(() => {
        expect(router.state.location.search).toBe('');
      });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'creates an Iou through the generated form, then splits it',
    async () => {
      const { user, alice, submitted } = await openComposer();

      await paste(user, screen.getByRole('combobox', { name: /^Template id/ }), IOU);
      // The form generated from the decoded template.
      const currency = await screen.findByRole('textbox', { name: 'currency' });
      await paste(user, screen.getByRole('combobox', { name: /^issuer/ }), alice);
      await paste(user, screen.getByRole('combobox', { name: /^owner/ }), alice);
      await user.type(currency, 'USD');
      await replace(user, screen.getByRole('textbox', { name: /^amount/ }), '100');
      await user.click(screen.getByRole('button', { name: 'Add to observers' }));
      await paste(user, screen.getByRole('combobox', { name: /^observers 1/ }), alice);
      await fillSubmitter(user, alice);

      // The JSON view shows the same value.
      await user.click(screen.getByRole('radio', { name: 'JSON' }));
      const json = screen.getByRole('textbox', { name: 'Template arguments JSON' });
      expect(JSON.parse((json as HTMLTextAreaElement).value)).toEqual({
        issuer: alice,
        owner: alice,
        currency: 'USD',
        amount: '100',
        observers: [alice],
      });
      await user.click(screen.getByRole('radio', { name: 'Form' }));
      expect(screen.getByRole('textbox', { name: 'currency' })).toHaveValue('USD');

      await user.click(screen.getByRole('button', { name: 'Submit' }));
      const result = await resultRegion();
      expect(submitted.map(({ path }) => path)).toEqual([TREE_ENDPOINT]);
      const sent = submitted[0]?.body as JsCommands;
      expect(sent.commands).toEqual([
        {
          CreateCommand: {
            templateId: IOU,
            createArguments: {
              issuer: alice,
              owner: alice,
              currency: 'USD',
              amount: '100',
              observers: [alice],
            },
          },
        },
      ]);
      expect(sent.actAs).toEqual([alice]);
      expect(sent.userId).toBe('participant_admin');
      expect(within(result).getByRole('group', { name: 'Offset' })).toBeInTheDocument();
      expect(
        within(result).getByRole('link', { name: 'Open in the transaction viewer' }),
      ).toHaveAttribute('href', expect.stringMatching(/^\/transactions\?update=1220[0-9a-f]{64}$/));

      // The result is where the eye goes: its heading has the focus.
      expect(within(result).getByRole('heading', { name: 'Result' })).toHaveFocus();

      // Exercise Iou_Split on the new contract: a new submission opens below, prefilled. The
      // button's name starts with the words it shows (WCAG 2.5.3 label in name), then says which.
      const exercise = within(result).getByRole('button', {
        name: /^Exercise a choice on it \(Iou 00[0-9a-f]{4}…[0-9a-f]{4}\)$/,
      });
      expect(exercise).not.toHaveAttribute('aria-label');
      expect(exercise).not.toHaveAttribute('aria-labelledby');
      expect(shownText(exercise)).toBe('Exercise a choice on it');
      await user.click(exercise);
      const followUp = await screen.findByRole('region', { name: 'Submission 2' });
      expect(within(followUp).getByRole('heading', { name: 'Submission 2' })).toHaveFocus();
      // The first submission and its result stay as they were.
      const first = screen.getByRole('region', { name: 'Submission 1' });
      expect(within(first).getByRole('combobox', { name: /^Template id/ })).toHaveValue(IOU);
      expect(within(first).getByRole('region', { name: 'Result' })).toBe(result);
      // The template id keeps the package-name form the user wrote, not the result's package id.
      const command = within(followUp).getByRole('region', { name: 'Command 1' });
      expect(within(command).getByRole('combobox', { name: /^Template id/ })).toHaveValue(IOU);
      expect(
        within(command).getByRole<HTMLInputElement>('combobox', { name: /^Contract id/ }).value,
      ).toMatch(/^00[0-9a-f]{60,}$/);
      await paste(user, within(command).getByRole('combobox', { name: /^Choice/ }), 'Iou_Split');
      await replace(
        user,
        await within(command).findByRole('textbox', { name: /^splitAmount/ }),
        '40',
      );
      await user.click(within(followUp).getByRole('button', { name: 'Submit' }));

      await waitFor(
        () => {
          expect(submitted).toHaveLength(2);
        },
        { timeout: 10_000 },
      );
      const split = submitted[1]?.body as JsCommands;
      expect(split.commands[0]).toMatchObject({
        ExerciseCommand: {
          templateId: IOU,
          choice: 'Iou_Split',
          choiceArgument: { splitAmount: '40' },
        },
      });
      // Acting as the submission it follows, with a command id of its own.
      expect(split.actAs).toEqual([alice]);
      expect(split.userId).toBe('participant_admin');
      expect(split.commandId).not.toBe(sent.commandId);
      await waitFor(
        () => {
          expect(
            within(within(followUp).getByRole('region', { name: 'Result' })).getAllByRole(
              'button',
              { name: /^Exercise a choice on it \(Iou / },
            ),
          ).toHaveLength(2);
        },
        { timeout: 10_000 },
      );
      // The first result still shows the contract it created.
      expect(
        within(result).getAllByRole('button', { name: /^Exercise a choice on it \(Iou / }),
      ).toHaveLength(1);
      const history = screen.getByRole('table', { name: 'Submission history' });
      expect(within(history).getAllByRole('row')).toHaveLength(3);
      expect(within(history).getByText('Exercise Iou_Split')).toBeInTheDocument();
      expect(within(history).getByText('Create Iou')).toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'checks the form before sending',
    async () => {
      const { user, submitted } = await openComposer();

      await paste(user, screen.getByRole('combobox', { name: /^Template id/ }), 'Iou');
      await user.click(screen.getByRole('button', { name: 'Submit' }));

      expect(
        await screen.findByText(
          'Use #<package-name>:<Module>:<Entity> or <package-id>:<Module>:<Entity>',
        ),
      ).toBeInTheDocument();
      expect(screen.getByText('At least one party to act as')).toBeInTheDocument();
      expect(
        screen.getByText(
          'Required: the participant has no user behind this session to default it to',
        ),
      ).toBeInTheDocument();
      expect(submitted).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows an unknown template on the template field and keeps what was typed',
    async () => {
      const { user, alice, submitted } = await openComposer();
      const templateId = '#sandbox-demo:Demo.Iou:Nope';

      await submitCreate(user, alice, templateId, { issuer: alice });

      const field = screen.getByRole('combobox', { name: /^Template id/ });
      await waitFor(() => {
        expect(field).toHaveAttribute('aria-invalid', 'true');
      });
      expect(field).toHaveAccessibleDescription(expect.stringMatching(/Templates do not exist/));
      expect(field).toHaveValue(templateId);
      expect(submitted).toHaveLength(1);
      expect(screen.queryByRole('region', { name: 'Result' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows an argument error on the arguments',
    async () => {
      const { user, alice } = await openComposer();

      await submitCreate(user, alice, IOU, { issuer: alice });

      expect(await screen.findByText(/Missing non-optional fields: owner/)).toBeInTheDocument();
      const json = screen.getByRole('textbox', { name: 'Template arguments JSON' });
      expect(json).toHaveAttribute('aria-invalid', 'true');
      expect(json).toHaveAccessibleDescription(/Missing non-optional fields: owner/);
      expect(JSON.parse((json as HTMLTextAreaElement).value)).toEqual({ issuer: alice });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'announces an argument error on the generated form',
    async () => {
      const { user, alice } = await openComposer();

      await paste(user, screen.getByRole('combobox', { name: /^Template id/ }), IOU);
      await paste(user, await screen.findByRole('combobox', { name: /^issuer/ }), alice);
      await paste(user, screen.getByRole('combobox', { name: /^owner/ }), alice);
      await user.type(screen.getByRole('textbox', { name: 'currency' }), 'USD');
      await replace(user, screen.getByRole('textbox', { name: /^amount/ }), '1.2.3');
      await fillSubmitter(user, alice);
      await user.click(screen.getByRole('button', { name: 'Submit' }));

      const group = screen.getByRole('group', { name: 'Template arguments' });
      await waitFor(
        () => {
          expect(group).toHaveAccessibleDescription(
            /Invalid value at 'commands\[0\]\.createArguments\.amount'/,
          );
        },
        { timeout: 10_000 },
      );
      // What was typed stays.
      expect(screen.getByRole('textbox', { name: /^amount/ })).toHaveValue('1.2.3');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'falls back to submit-and-wait-for-transaction where the tree endpoint is gone',
    async () => {
      const { user, alice, submitted } = await openComposer({
        // A newer participant: the deprecated endpoint answers as an unknown path (§1.10).
        intercept: (request, sandboxFetch) =>
          new URL(request.url).pathname === TREE_ENDPOINT
            ? Promise.resolve(
                Response.json(
                  {
                    errors: [`HttpMethod(POST), uri: ${request.url}`],
                    status: 404,
                    ledgerApiError: null,
                  },
                  { status: 404 },
                ),
              )
            : sandboxFetch(request),
      });

      await submitIouCreate(user, alice, { currency: 'EUR', amount: '5' });

      const result = await resultRegion();
      expect(within(result).getByText('tree endpoint not offered')).toBeInTheDocument();
      expect(within(result).getByText('submit-and-wait-for-transaction')).toBeInTheDocument();
      expect(submitted.map(({ path }) => path)).toEqual([TREE_ENDPOINT, TRANSACTION_ENDPOINT]);
      expect(
        within(result).getByRole('button', { name: /^Exercise a choice on it \(Iou / }),
      ).toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'runs a submission again, loads it into the form and copies it as curl',
    async () => {
      const { user, alice, submitted } = await openComposer();
      const argument = { issuer: alice, owner: alice, currency: 'CHF', amount: '7', observers: [] };
      await submitCreate(user, alice, IOU, argument);
      await resultRegion();
      const history = await screen.findByRole('table', { name: 'Submission history' });
      const first = submitted[0]?.body as JsCommands;

      await user.click(within(history).getByRole('button', { name: /^Copy as curl: Create Iou/ }));
      const curl = await navigator.clipboard.readText();
      expect(curl).toContain(`/v2/commands/submit-and-wait-for-transaction'`);
      expect(curl).toContain('Authorization: Bearer $TOKEN');
      expect(curl).toContain('"currency": "CHF"');

      await user.click(within(history).getByRole('button', { name: /^Run again: Create Iou/ }));
      await waitFor(
        () => {
          expect(within(history).getAllByRole('row')).toHaveLength(3);
        },
        { timeout: 10_000 },
      );
      const again = submitted[1]?.body as JsCommands;
      expect(again.commands).toEqual(first.commands);
      expect(again.commandId).not.toBe(first.commandId);

      // Running again opened a submission of its own, with its result.
      const rerun = screen.getByRole('region', { name: 'Submission 2' });
      expect(within(rerun).getByRole('region', { name: 'Result' })).toBeInTheDocument();

      // Unsent work in the first submission: Edit opens the entry below instead of replacing it.
      const firstSubmission = screen.getByRole('region', { name: 'Submission 1' });
      await user.clear(within(firstSubmission).getByRole('combobox', { name: /^Template id/ }));
      const [newestEdit] = within(history).getAllByRole('button', { name: /^Edit: Create Iou/ });
      if (!newestEdit) throw new Error('no Edit button');
      await user.click(newestEdit);
      const edited = await screen.findByRole('region', { name: 'Submission 3' });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(within(firstSubmission).getByRole('combobox', { name: /^Template id/ })).toHaveValue(
        '',
      );
      expect(within(edited).getByRole('combobox', { name: /^Template id/ })).toHaveValue(IOU);
      const commandId = within(edited).getByRole('textbox', { name: /^Command id/ });
      expect(commandId).not.toHaveValue(again.commandId);
      expect(commandId).not.toHaveValue(first.commandId);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'keeps the unsent draft when leaving the page after a failed submit',
    async () => {
      const { user, alice } = await openComposer();
      const templateId = '#sandbox-demo:Demo.Iou:Nope';
      await fillCreateAsJson(user, templateId, { issuer: alice });
      await fillSubmitter(user, alice);
      await user.type(screen.getByRole('textbox', { name: /^Workflow id/ }), 'draft-flow');
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      await waitFor(() => {
        expect(screen.getByRole('combobox', { name: /^Template id/ })).toHaveAttribute(
          'aria-invalid',
          'true',
        );
      });

      await user.click(screen.getByRole('link', { name: 'Packages' }));
      await screen.findByRole('heading', { name: 'Packages', level: 1 });
      await user.click(screen.getByRole('link', { name: 'Command composer' }));
      await screen.findByRole('form', { name: 'Compose commands' });

      expect(screen.getByRole('alert', { name: 'Unsent draft restored' })).toBeVisible();
      expect(screen.getByRole('combobox', { name: /^Template id/ })).toHaveValue(templateId);
      expect(screen.getByRole('textbox', { name: /^Workflow id/ })).toHaveValue('draft-flow');
      expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('participant_admin');
      expect(argumentJson()).toEqual({ issuer: alice });

      // Restored is still unsent: leaving again keeps it again.
      await user.click(screen.getByRole('link', { name: 'Packages' }));
      await screen.findByRole('heading', { name: 'Packages', level: 1 });
      await user.click(screen.getByRole('link', { name: 'Command composer' }));
      await screen.findByRole('form', { name: 'Compose commands' });
      expect(screen.getByRole('combobox', { name: /^Template id/ })).toHaveValue(templateId);

      await user.click(screen.getByRole('button', { name: 'Discard the draft' }));
      expect(screen.getByRole('combobox', { name: /^Template id/ })).toHaveValue('');
      expect(sessionStorage.length).toBe(0);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'builds arguments of exactly the chosen type, enums and variants starting valid',
    async () => {
      const sandbox = createSandbox();
      await seedFormTypesPackage(sandbox);
      const { user, alice } = await openComposer({ sandbox });
      const template = screen.getByRole('combobox', { name: /^Template id/ });

      await paste(user, template, `#${FORM_TYPES_PACKAGE}:Main:Order`);
      await paste(user, await screen.findByRole('combobox', { name: /^owner/ }), alice);
      expect(await screen.findByRole('combobox', { name: /^color/ })).toHaveValue('Red');
      await user.click(screen.getByRole('radio', { name: 'JSON' }));
      expect(argumentJson()).toEqual({
        owner: alice,
        color: 'Red',
        shape: { tag: 'Circle', value: '0' },
        // Outcome Int64: the type parameter is applied, so Done holds an Int64.
        result: { tag: 'Done', value: '0' },
      });

      // Another template: its fields only, the owner kept, the Order's fields gone.
      await user.click(screen.getByRole('radio', { name: 'Form' }));
      await replace(user, template, `#${FORM_TYPES_PACKAGE}:Main:Note`);
      await screen.findByRole('textbox', { name: 'text' });
      await user.click(screen.getByRole('radio', { name: 'JSON' }));
      expect(argumentJson()).toEqual({ owner: alice, text: '' });

      // The same for a choice argument.
      await user.click(screen.getByRole('button', { name: 'Add exercise command' }));
      const command = screen.getByRole('region', { name: 'Command 2' });
      await paste(user, within(command).getByRole('combobox', { name: /^Template id/ }), IOU);
      const choice = within(command).getByRole('combobox', { name: /^Choice/ });
      await paste(user, choice, 'Iou_Split');
      await replace(
        user,
        await within(command).findByRole('textbox', { name: /^splitAmount/ }),
        '40',
      );
      await replace(user, choice, 'Iou_Transfer');
      await within(command).findByRole('combobox', { name: /^newOwner/ });
      await user.click(within(command).getByRole('radio', { name: 'JSON' }));
      expect(
        JSON.parse(
          within(command).getByRole<HTMLTextAreaElement>('textbox', {
            name: 'Choice argument JSON',
          }).value,
        ),
      ).toEqual({ newOwner: '' });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says when packages or parties could not be read',
    async () => {
      let brokenPackage: string | undefined;
      await openComposer({
        intercept: (request, sandboxFetch) => {
          const { pathname } = new URL(request.url);
          if (pathname === '/v2/parties' && request.method === 'GET') {
            return Promise.resolve(
              Response.json(
                { code: 'SANDBOX_DOWN', cause: 'Parties are out to lunch' },
                { status: 503 },
              ),
            );
          }
          const packageId = /^\/v2\/packages\/([0-9a-f]{64})$/.exec(pathname)?.[1];
          if (packageId && (brokenPackage ?? packageId) === packageId) {
            brokenPackage = packageId;
            // Bytes that are no Daml-LF archive: the decoder refuses them.
            return Promise.resolve(new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
          }
          return sandboxFetch(request);
        },
      });

      await waitFor(
        () => {
          expect(
            screen.getByRole('combobox', { name: /^Template id/ }),
          ).toHaveAccessibleDescription(/1 package could not be read/);
        },
        { timeout: 10_000 },
      );
      expect(screen.getByRole('combobox', { name: /^Act as/ })).toHaveAccessibleDescription(
        /Parties could not be loaded \(Parties are out to lunch\)/,
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers a user with party rights only its own parties',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      const adminToken = await mintToken(sandbox, 'participant_admin');
      const [alice = '', bob = '', carol = ''] = await seedParties(
        sandbox,
        ['alice', 'bob', 'carol'],
        { token: adminToken },
      );
      seedRightsHolders(sandbox, [
        {
          userId: 'trader',
          rights: [
            { kind: 'CanActAs', party: alice },
            { kind: 'CanReadAs', party: bob },
          ],
        },
      ]);
      await signInAs(sandbox, 'trader');
      const { user } = await openComposerAt(sandbox);

      const actAs = screen.getByRole('combobox', { name: /^Act as/ });
      expect(actAs).toHaveAccessibleDescription(/Only parties your user has rights for/);
      await user.click(actAs);
      const offered = await screen.findAllByRole('option');
      expect(offered.map((option) => option.textContent)).toEqual([alice]);
      await user.keyboard('{Escape}');

      await user.click(screen.getByRole('combobox', { name: /^Read as/ }));
      const readable = (await screen.findAllByRole('option')).map((option) => option.textContent);
      expect(readable.sort()).toEqual([alice, bob].sort());
      expect(readable).not.toContain(carol);
      // Its own user id is the default, filled in.
      expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('trader');
      await user.keyboard('{Escape}');

      // A party argument offers the parties it may act or read as: the participant's list, which
      // a plain user may not read, is no error for it.
      await paste(user, screen.getByRole('combobox', { name: /^Template id/ }), IOU);
      const command = screen.getByRole('region', { name: 'Command 1' });
      const owner = await within(command).findByRole(
        'combobox',
        { name: /^owner/ },
        { timeout: 10_000 },
      );
      expect(owner).toHaveAccessibleDescription(/parties your user may act or read as/);
      expect(owner).not.toHaveAccessibleDescription(/could not be loaded/);
      expect(screen.queryByText(/Parties could not be loaded/)).toBeNull();
      await user.click(owner);
      const argumentParties = (await screen.findAllByRole('option')).map(
        (option) => option.textContent,
      );
      expect(argumentParties.sort()).toEqual([`alice ${alice}`, `bob ${bob}`].sort());
    },
    JOURNEY_TIMEOUT,
  );
});

describe('composer history', () => {
  /**
   * Creates an Iou as `alice` and waits for its result; without a token the submitter is filled
   * in, a signed-in trader's is already there (its only party and its own user id).
   */
  async function submitIou(user: UserEvent, alice: string, { fillIn = true } = {}) {
    await fillIouCreate(user, { issuer: alice, owner: alice, currency: 'EUR', amount: '5' });
    if (fillIn) await fillSubmitter(user, alice);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await resultRegion();
  }

  /** The history's submissions, once the composer is shown; [] when it has none. */
  async function historyRows() {
    await screen.findByRole('form', { name: 'Compose commands' });
    const table = screen.queryByRole('table', { name: 'Submission history' });
    return table ? within(table).getAllByRole('row').slice(1) : [];
  }

  function showComposer(sandbox: Sandbox) {
    cleanup();
    return renderRoute('/composer', { sandbox });
  }

  it(
    'is kept per participant and per identity; without a token, signing in and out keeps it',
    async () => {
      const alpha = createSandbox({ participantName: 'alpha' });
      const { user, alice } = await openComposer({ sandbox: alpha });
      await submitIou(user, alice);
      expect(await historyRows()).toHaveLength(1);

      // The same browser and identity on another participant: its own, empty history.
      showComposer(createSandbox({ participantName: 'beta' }));
      expect(await historyRows()).toEqual([]);

      // Someone signs in with a token (the participant has no auth, so anyone may).
      writeAccessToken(await hs256Token('participant_admin'));
      showComposer(alpha);
      expect(await historyRows()).toEqual([]);

      // Signing out returns to the anonymous identity, whose history was never its to forget.
      writeAccessToken(undefined);
      showComposer(alpha);
      expect(await historyRows()).toHaveLength(1);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "forgets a remembered identity's history when it signs out, not when its token is renewed",
    async () => {
      const { sandbox, alice } = await tradingSandbox(['trader']);
      const first = await mintToken(sandbox, 'trader');
      writeAccessToken(first, { remember: true });
      const { user } = showComposer(sandbox);
      await screen.findByRole('form', { name: 'Compose commands' });
      await submitIou(user, alice, { fillIn: false });
      expect(await historyRows()).toHaveLength(1);

      // A fresh token for the same user (issued a second later): still the same identity.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const renewed = await mintToken(sandbox, 'trader');
      expect(renewed).not.toBe(first);
      writeAccessToken(renewed, { remember: true });
      showComposer(sandbox);
      expect(await historyRows()).toHaveLength(1);

      // Sign out (what the menu's Sign out does), then sign in as the same user: nothing is left.
      writeAccessToken(undefined);
      writeAccessToken(await mintToken(sandbox, 'trader'), { remember: true });
      showComposer(sandbox);
      expect(await historyRows()).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'keeps the history of a sign-in that is not remembered for the browser session only',
    async () => {
      const { sandbox, alice } = await tradingSandbox(['trader', 'other-trader']);
      await signInAs(sandbox, 'trader');
      const { user } = showComposer(sandbox);
      await screen.findByRole('form', { name: 'Compose commands' });
      await submitIou(user, alice, { fillIn: false });
      expect(await historyRows()).toHaveLength(1);
      const kept = (storage: Storage) =>
        Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key) =>
          key?.includes('composer.history'),
        );
      expect(kept(window.localStorage)).toEqual([]);
      expect(kept(window.sessionStorage)).toHaveLength(1);

      // Another user signs in: the first one's history is gone, and the new one starts empty.
      await signInAs(sandbox, 'other-trader');
      showComposer(sandbox);
      expect(await historyRows()).toEqual([]);
      expect(kept(window.sessionStorage)).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});

describe('composer failures that offer their fix', () => {
  it(
    'adds a missing authorizer to Act as, keeping the error beside the field, then succeeds',
    async () => {
      const sandbox = createSandbox();
      const [bob = ''] = await seedParties(sandbox, ['bob']);
      const { user, alice, submitted } = await openComposer({ sandbox });
      // Bob is the issuer, the Iou's signatory: acting as Alice alone lacks his authority.
      await submitIouCreate(user, alice, { issuer: bob, currency: 'EUR', amount: '5' });

      const failure = await notSubmitted();
      expect(failure).toHaveTextContent(/needs the authority of bob::/);
      // The server's error stays on Act as, announced with it, and opening its dropdown keeps it.
      const actAs = screen.getByRole('combobox', { name: /^Act as/ });
      expect(actAs).toHaveAttribute('aria-invalid', 'true');
      expect(actAs).toHaveAccessibleDescription(/requires authorizers/);
      await user.click(actAs);
      expect(actAs).toHaveAccessibleDescription(/requires authorizers/);
      await user.keyboard('{Escape}');

      await user.click(within(failure).getByRole('button', { name: /^Add bob::.* to Act as$/ }));
      expect(screen.queryByRole('alert', { name: 'Not submitted' })).not.toBeInTheDocument();
      expect(actAs).not.toHaveAttribute('aria-invalid', 'true');
      await user.click(screen.getByRole('button', { name: 'Submit' }));

      await resultRegion();
      const sent = submitted.at(-1)?.body as JsCommands;
      expect(new Set(sent.actAs)).toEqual(new Set([alice, bob]));
      expect(submitted).toHaveLength(2);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'takes a new command id for a duplicate and keeps everything else',
    async () => {
      const { user, alice, submitted } = await openComposer();
      await submitIouCreate(user, alice, { currency: 'GBP', amount: '3' });
      await resultRegion();
      const firstId = (submitted[0]?.body as JsCommands).commandId;

      // The same command id again: the participant refuses it as a duplicate.
      const commandId = screen.getByRole('textbox', { name: /^Command id/ });
      await replace(user, commandId, firstId);
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      const failure = await notSubmitted();
      expect(failure).toHaveTextContent(/already accepted \(at offset \d+\)/);
      expect(commandId).toHaveAttribute('aria-invalid', 'true');

      await user.click(within(failure).getByRole('button', { name: 'Generate a new command id' }));
      expect(commandId).not.toHaveValue(firstId);
      expect(commandId).not.toHaveAttribute('aria-invalid', 'true');
      await user.click(screen.getByRole('button', { name: 'Submit' }));

      await waitFor(
        () => {
          expect(
            within(screen.getByRole('table', { name: 'Submission history' })).getAllByRole('row'),
          ).toHaveLength(3);
        },
        { timeout: 10_000 },
      );
      const third = submitted[2]?.body as JsCommands;
      expect(third.commandId).not.toBe(firstId);
      expect(third.commands).toEqual((submitted[0]?.body as JsCommands).commands);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers the catalog and an upload for an unknown template',
    async () => {
      const { user, alice } = await openComposer();
      await submitCreate(user, alice, '#sandbox-demo:Demo.Iou:Nope', { issuer: alice });
      const failure = await notSubmitted();
      expect(failure).toHaveTextContent(
        'The participant has no template #sandbox-demo:Demo.Iou:Nope.',
      );
      expect(within(failure).getByRole('link', { name: 'Upload a DAR' })).toHaveAttribute(
        'href',
        '/packages/upload',
      );
      await user.click(
        within(failure).getByRole('button', { name: 'Pick a template from the catalog' }),
      );
      expect(screen.getByRole('combobox', { name: /^Template id/ })).toHaveFocus();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers to open a contract that an earlier submission archived',
    async () => {
      const { user, alice } = await openComposer();
      await submitIouCreate(user, alice, { currency: 'EUR', amount: '9' });
      const result = await resultRegion();
      const exercise = within(result).getByRole('button', {
        name: /^Exercise a choice on it \(Iou /,
      });

      /** Opens a follow-up on the created Iou and exercises `choice` with party `field` = `value`. */
      async function followUp(name: string, choice: string, field: RegExp, value: string) {
        await user.click(exercise);
        const region = await screen.findByRole('region', { name });
        await paste(user, within(region).getByRole('combobox', { name: /^Choice/ }), choice);
        const input = await within(region).findByRole('combobox', { name: field });
        await paste(user, input, value);
        await user.click(within(region).getByRole('button', { name: 'Submit' }));
        return region;
      }

      const transfer = await followUp('Submission 2', 'Iou_Transfer', /^newOwner/, alice);
      await within(transfer).findByRole('region', { name: 'Result' }, { timeout: 10_000 });
      // The first result still offers the Iou, which the transfer archived.
      const again = await followUp('Submission 3', 'Iou_Transfer', /^newOwner/, alice);
      const failure = await notSubmitted(within(again));
      expect(failure).toHaveTextContent(/no longer active: it was archived/);
      const contractId = within(again).getByRole<HTMLInputElement>('combobox', {
        name: /^Contract id/,
      }).value;
      expect(within(failure).getByRole('link', { name: /^Open contract/ })).toHaveAttribute(
        'href',
        `/contracts/${contractId}`,
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says what a 403 is about: a user id that is not the signed-in user',
    async () => {
      const { sandbox, alice } = await tradingSandbox(['trader']);
      await signInAs(sandbox, 'trader');
      const { user } = await openComposerAt(sandbox);
      await fillIouCreate(user, { issuer: alice, owner: alice, currency: 'EUR', amount: '1' });
      await replace(user, screen.getByRole('textbox', { name: /^User id/ }), 'someone-else');
      await user.click(screen.getByRole('button', { name: 'Submit' }));

      const failure = await notSubmitted();
      expect(failure).toHaveTextContent(
        'The command names user someone-else, but you are signed in as trader',
      );
      expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
    },
    JOURNEY_TIMEOUT,
  );
});

describe('composer submissions', () => {
  it(
    'keeps at most ten open, closing the oldest with a note; the history keeps every one',
    async () => {
      const { user, alice } = await openComposer();
      await submitIouCreate(user, alice, { currency: 'EUR', amount: '2' });
      await resultRegion();
      const history = screen.getByRole('table', { name: 'Submission history' });

      for (let run = 1; run <= MAX_OPEN_SUBMISSIONS; run++) {
        const [newest] = within(history).getAllByRole('button', { name: /^Run again: Create Iou/ });
        if (!newest) throw new Error('no Run again button');
        await user.click(newest);
        await screen.findByRole(
          'region',
          { name: `Submission ${String(Math.min(run + 1, MAX_OPEN_SUBMISSIONS))}` },
          { timeout: 10_000 },
        );
        await waitFor(
          () => {
            expect(within(history).getAllByRole('row')).toHaveLength(run + 2);
          },
          { timeout: 10_000 },
        );
      }

      expect(screen.getAllByRole('region', { name: /^Submission \d+$/ })).toHaveLength(
        MAX_OPEN_SUBMISSIONS,
      );
      expect(
        screen.getByText(/The oldest submission was closed to keep at most 10 open/),
      ).toBeInTheDocument();
    },
    JOURNEY_TIMEOUT * 2,
  );
});

describe('composer copy as', () => {
  it(
    'copies as curl exactly what Submit then sends, and as a Canton console command',
    async () => {
      const { user, alice, submitted } = await openComposer();
      await fillIouCreate(user, { issuer: alice, owner: alice, currency: 'JPY', amount: '5' });
      await fillSubmitter(user, alice);

      await user.click(screen.getByRole('button', { name: 'Copy as…' }));
      await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
      const curl = await navigator.clipboard.readText();
      expect(curl).toContain(`${TREE_ENDPOINT}'`);
      const body = /-d '([\s\S]*)'$/.exec(curl)?.[1];

      await user.click(screen.getByRole('button', { name: /^(Copy as…|Copied)$/ }));
      await user.click(await screen.findByRole('menuitem', { name: 'Canton console' }));
      const consoleText = await navigator.clipboard.readText();
      expect(consoleText).toMatch(/^participant\.ledger_api\.commands\.submit\(actAs = Seq\(/);
      expect(consoleText).toContain(
        'ledger_api_utils.create("#sandbox-demo", "Demo.Iou", "Iou", scala.collection.immutable.ListMap(',
      );
      expect(consoleText).toContain('"currency" -> "JPY", "amount" -> 5.0, "observers" -> Seq()');
      expect(consoleText).toContain('userId = "participant_admin"');

      await user.click(screen.getByRole('button', { name: 'Submit' }));
      await resultRegion();
      expect(submitted[0]?.path).toBe(TREE_ENDPOINT);
      expect(JSON.parse(body ?? 'null')).toEqual(submitted[0]?.body);
    },
    JOURNEY_TIMEOUT,
  );
});
