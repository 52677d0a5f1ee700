import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { renderRoute } from './render-route';
import type { NetworkIntercept, Sandbox } from './sandbox-network';

/** The demo package's Iou, the template most composer journeys create and exercise. */
export const IOU = '#sandbox-demo:Demo.Iou:Iou';

/** A request the composer sent, as the participant received it. */
export type SentRequest = { path: string; body: unknown };

/**
 * Renders the app at `path` (a composer URL) and waits for the form. The body of every request
 * under one of the `recorded` path prefixes is kept in `sent`, in order; `intercept` may still
 * answer any request itself.
 */
export async function openComposerAt(
  sandbox: Sandbox,
  options: { path?: string; recorded?: readonly string[]; intercept?: NetworkIntercept } = {},
) {
  const { path = '/composer', recorded = ['/v2/commands/'], intercept } = options;
  const sent: SentRequest[] = [];
  const view = renderRoute(path, {
    sandbox,
    intercept: async (request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      if (recorded.some((prefix) => pathname.startsWith(prefix))) {
        sent.push({ path: pathname, body: await request.clone().json() });
      }
      return intercept ? intercept(request, sandboxFetch) : sandboxFetch(request);
    },
  });
  await screen.findByRole('form', { name: 'Compose commands' });
  return { ...view, sent };
}

/** Long ids and JSON go in by paste: typing them key by key only slows the test down. */
export async function paste(user: UserEvent, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

export async function replace(user: UserEvent, input: HTMLElement, text: string) {
  await user.clear(input);
  await paste(user, input, text);
}

/** Who submits: the party to act as, and a user id (the sandbox has no auth, §4.2). */
export async function fillSubmitter(user: UserEvent, party: string) {
  await paste(user, screen.getByRole('combobox', { name: /^Act as/ }), party);
  await user.keyboard('{Enter}');
  await replace(user, screen.getByRole('textbox', { name: /^User id/ }), 'participant_admin');
}

/** A create command of `templateId` in the first command, its arguments given as JSON. */
export async function fillCreateAsJson(user: UserEvent, templateId: string, argument: unknown) {
  await paste(user, screen.getByRole('combobox', { name: /^Template id/ }), templateId);
  const command = screen.getByRole('region', { name: 'Command 1' });
  const json = within(command).queryByRole('radio', { name: 'JSON' });
  if (json) await user.click(json);
  await replace(
    user,
    within(command).getByRole('textbox', { name: 'Template arguments JSON' }),
    JSON.stringify(argument),
  );
}
