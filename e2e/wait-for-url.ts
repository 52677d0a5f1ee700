export {};

/**
 * Waits until a URL answers 200 (at most three minutes), so a second `npm start` in the e2e setup
 * does not race the first one to build the SPA into the same dist/ folder.
 */
const url = process.argv[2];
if (!url) throw new Error('usage: tsx e2e/wait-for-url.ts <url>');
const deadline = Date.now() + 180_000;

async function isUp(target: string): Promise<boolean> {
  try {
    return (await fetch(target)).ok;
  } catch {
    return false;
  }
}

while (!(await isUp(url))) {
  if (Date.now() > deadline) throw new Error(`${url} did not come up within 3 minutes`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
