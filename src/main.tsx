import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { ApiError } from '@/lib/api-error';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

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
