/**
 * Polls `check` every 50 ms until it answers true; fails after `timeoutMs` naming what it waited
 * for. For projections (eventually consistent by design), never for fixed sleeps.
 */
export const waitFor = async (
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
