import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { preloadRoutesOnIntent } from './preload-on-intent';

/** A route tree whose lazy routes count their loads, as the app's import their pages. */
function countingRoutes() {
  const loads = { users: 0, user: 0, failing: 0 };
  const routes: RouteObject[] = [
    {
      path: '/',
      children: [
        {
          path: 'users',
          lazy: () => {
            loads.users++;
            return Promise.resolve({ Component: () => null });
          },
        },
        {
          path: 'users/:id',
          lazy: () => {
            loads.user++;
            return Promise.resolve({ Component: () => null });
          },
        },
        {
          path: 'failing',
          lazy: () => {
            loads.failing++;
            return Promise.reject(new Error('chunk failed to load'));
          },
        },
      ],
    },
  ];
  return { loads, router: createMemoryRouter(routes) };
}

function link(href: string) {
  const anchor = document.createElement('a');
  anchor.href = href;
  const label = document.createElement('span');
  label.textContent = 'open';
  anchor.append(label);
  document.body.append(anchor);
  return { anchor, label };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const pointOn = (element: Element) => {
  element.dispatchEvent(new Event('pointerover', { bubbles: true }));
};

let stop: () => void = () => undefined;
afterEach(() => {
  stop();
  document.body.replaceChildren();
});

describe('preloading routes on intent', () => {
  it('loads a page’s route when the pointer comes onto a link to it, once per route', async () => {
    const { loads, router } = countingRoutes();
    stop = preloadRoutesOnIntent(router);

    pointOn(link('/users/alice').label);
    pointOn(link('/users/bob').anchor);
    await settle();

    expect(loads).toEqual({ users: 0, user: 1, failing: 0 });
  });

  it('loads on keyboard focus too', async () => {
    const { loads, router } = countingRoutes();
    stop = preloadRoutesOnIntent(router);

    link('/users').anchor.focus();
    await settle();

    expect(loads.users).toBe(1);
  });

  it('ignores links to other origins, paths no route matches, and what is not a link', async () => {
    const { loads, router } = countingRoutes();
    stop = preloadRoutesOnIntent(router);

    pointOn(link('https://attacker.example/users/alice').anchor);
    pointOn(link('/nowhere/at/all').anchor);
    pointOn(document.body);
    await settle();

    expect(loads).toEqual({ users: 0, user: 0, failing: 0 });
  });

  it('tries a route whose code failed to load again on the next intent', async () => {
    const { loads, router } = countingRoutes();
    stop = preloadRoutesOnIntent(router);
    const failing = link('/failing').anchor;

    pointOn(failing);
    await settle();
    pointOn(failing);
    await settle();

    expect(loads.failing).toBe(2);
  });

  it('stops listening when stopped', async () => {
    const { loads, router } = countingRoutes();
    preloadRoutesOnIntent(router)();

    pointOn(link('/users').anchor);
    await settle();

    expect(loads.users).toBe(0);
  });
});
