import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { preparePageParticipant } from '@/app/page-participant';
import { env } from '@/env';
import { ApiError } from '@/lib/errors/api-error';
import { configureZod } from '@/lib/forms/zod-config';

configureZod();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The popup of a mid-session sign-in lands here: it hands the provider's answer to the page that
// opened it (which exchanges the code) and closes. No console is rendered in it.
// On a fleet participant's pages (`/p/NAME/…`) the path after the prefix is the console's own.
const pagePath = window.location.pathname.slice(env.PAGE_BASE.length);

if (pagePath === '/sign-in/popup-callback') {
  container.textContent = 'Completing the sign-in…';
  void import('@/api/oidc-session')
    .then(({ completePopupSignIn }) => completePopupSignIn(window.location.href))
    .catch(() => {
      container.textContent =
        'This window could not hand the sign-in back to the console. Close it and sign in again.';
    });
} else if (env.PARTICIPANT === undefined) {
  renderApp(container);
} else {
  // Which sign-in the page uses depends on whether NAME is the default participant: learn it
  // before the first request.
  void preparePageParticipant().then((problem) => {
    if (problem === undefined) {
      renderApp(container);
      return;
    }
    container.textContent = problem;
    const home = document.createElement('a');
    home.href = '/';
    home.textContent = ' Open the default participant.';
    container.append(home);
  });
}

function renderApp(container: HTMLElement) {
  createRoot(container, {
    // An ApiError a boundary caught is an answer the screen already shows (not found, not allowed,
    // unreachable): a warning with its code and correlation id is enough for operators. Anything
    // else a boundary caught is a bug, and stays an error.
    onCaughtError: (error, info) => {
      if (error instanceof ApiError) {
        console.warn(
          `Shown to the user: ${error.message}`,
          error.body.correlationId ? `(correlation id ${error.body.correlationId})` : '',
        );
        return;
      }
      console.error(error, info.componentStack);
    },
  }).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
