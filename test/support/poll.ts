// Polling with a deadline, for state that settles asynchronously: no fixed sleeps, and a clear failure when it never does.
import { strict as assert } from 'node:assert';

/**
 * Calls `probe` until it returns true, pausing `intervalMs` between calls; fails with "timed out ... waiting for
 * <what>" once `timeoutMs` have passed. `what` may be a function, to describe the state the last probe saw.
 */
export async function pollUntil(probe: () => Promise<boolean>, timeoutMs: number, what: string | (() => string), intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() >= deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
