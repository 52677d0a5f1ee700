import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { installConsoleGuard } from './console-guard';
import { fixedMatchMedia } from './match-media';
import { bridgeWebCryptoRealm } from './webcrypto-realm';

bridgeWebCryptoRealm();

// jsdom lacks what Mantine measures and listens to; these are the shims of Mantine's own
// vite-template (vitest.setup.mjs). Guarded so a file switched to the node environment still loads.
if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: fixedMatchMedia(() => false),
  });

  class ResizeObserverShim implements ResizeObserver {
    observe(): void {
      // jsdom has no layout, so nothing ever resizes.
    }
    unobserve(): void {
      // See observe().
    }
    disconnect(): void {
      // See observe().
    }
  }
  window.ResizeObserver = ResizeObserverShim;

  Element.prototype.scrollIntoView = () => undefined;

  // Mantine's autosizing Textarea re-measures when web fonts load; jsdom has no FontFaceSet.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { value: new EventTarget() });
  }
}

// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  // Mantine's toast store is global: a toast from one test would show up in the next.
  notifications.clean();
  // A test that signed in must not leave its token to the next one.
  if (typeof window !== 'undefined') {
    window.sessionStorage.clear();
    window.localStorage.clear();
  }
});

// The in-process sandbox and the app share two busy CI cores with other test files; a second is
// too tight for a journey of several requests, and a real failure still fails, only later.
configure({ asyncUtilTimeout: 5000 });

installConsoleGuard();
