import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The wait before retry `attempt` (1 for the first retry) of a call that failed for a reason
 * worth asking again: a throttle, a race lost on a shared item, a service that did not answer.
 * Exponential backoff with full jitter: uniformly random in [0, min(capMs, baseMs·2^attempt)),
 * which spreads competing callers' retries the most for the least total wait (AWS Architecture
 * Blog, "Exponential Backoff And Jitter"). Every retry loop of the project waits through this.
 */
export const backoffMs = (attempt: number, baseMs: number, capMs = 1_000): number =>
  Math.random() * Math.min(capMs, baseMs * 2 ** attempt);

/** Waits `backoffMs(attempt, baseMs, capMs)`. */
export const backoff = (attempt: number, baseMs: number, capMs?: number): Promise<void> =>
  sleep(backoffMs(attempt, baseMs, capMs));
