/**
 * Runs `task` once the browser is idle (at the latest after `timeoutMs`), for work a page wants
 * soon but not in the task that shows it. Where there is no idle callback (Safari, jsdom), a short
 * timer stands in. Returns a function that cancels the task if it has not run.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: timeoutMs });
    return () => {
      cancelIdleCallback(handle);
    };
  }
  const handle = setTimeout(task, Math.min(timeoutMs, 200));
  return () => {
    clearTimeout(handle);
  };
}
