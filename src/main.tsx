import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { ApiError } from '@/lib/errors/api-error';
import { configureZod } from '@/lib/forms/zod-config';

configureZod();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The popup of a mid-session sign-in lands here: it hands the provider's answer to the page that
// opened it (which exchanges the code) and closes. No console is rendered in it.
if (window.location.pathname === '/sign-in/popup-callback') {
  container.textContent = 'Completing the sign-in…';
  void import('@/api/oidc-session')
    .then(({ completePopupSignIn }) => completePopupSignIn(window.location.href))
    .catch(() => {
      container.textContent =
        'This window could not hand the sign-in back to the console. Close it and sign in again.';
    });
} else {
  renderApp(container);
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
