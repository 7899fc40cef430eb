import { describe, expect, it } from 'vitest';
import {
  backoffSeconds,
  parseRetryAfter,
  planRetry,
  RETRY,
  scheduleOf,
} from '../../shared/webhooks/retry.ts';

describe('the retry schedule', () => {
  it('doubles from 10 s, capped at 8 h, each wait within ±20% jitter', () => {
    for (let attempt = 1; attempt <= 25; attempt++) {
      const exponential = Math.min(RETRY.capSeconds, 10 * 2 ** (attempt - 1));
      for (const random of [0, 0.25, 0.5, 0.75, 0.999999]) {
        const wait = backoffSeconds(attempt, random);
        expect(wait).toBeGreaterThanOrEqual(Math.floor(exponential * 0.8));
        expect(wait).toBeLessThanOrEqual(Math.ceil(exponential * 1.2));
      }
    }
    expect(backoffSeconds(1, 0.5)).toBe(10);
    expect(backoffSeconds(3, 0.5)).toBe(40);
    expect(backoffSeconds(20, 0.5)).toBe(8 * 3600);
  });

  it('spans about three days whatever the jitter: 19-22 attempts, last wait ending by 72 h', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999999, Math.random]) {
      const waits = scheduleOf(random);
      const total = waits.reduce((a, b) => a + b, 0);
      expect(total).toBeLessThanOrEqual(72 * 3600);
      expect(total).toBeGreaterThan(60 * 3600);
      expect(waits.length + 1).toBeGreaterThanOrEqual(19);
      expect(waits.length + 1).toBeLessThanOrEqual(22);
    }
  });

  it('honours a longer Retry-After (capped at 12 h) and never retries sooner than the backoff', () => {
    expect(planRetry({ failedAttempt: 1, elapsedSeconds: 0, retryAfterSeconds: 120, random: 0.5 })).toEqual({
      kind: 'retry',
      delaySeconds: 120,
    });
    expect(planRetry({ failedAttempt: 5, elapsedSeconds: 0, retryAfterSeconds: 1, random: 0.5 })).toEqual({
      kind: 'retry',
      delaySeconds: 160,
    });
    expect(
      planRetry({ failedAttempt: 1, elapsedSeconds: 0, retryAfterSeconds: 10 ** 9, random: 0.5 }),
    ).toEqual({
      kind: 'retry',
      delaySeconds: 12 * 3600,
    });
  });

  it('gives up when the next wait would end past 72 h', () => {
    expect(planRetry({ failedAttempt: 19, elapsedSeconds: 71 * 3600, random: 0.5 })).toEqual({
      kind: 'give-up',
    });
    expect(planRetry({ failedAttempt: 2, elapsedSeconds: 72 * 3600 - 30, random: 0.5 })).toEqual({
      kind: 'retry',
      delaySeconds: 20,
    });
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(parseRetryAfter('90', now)).toBe(90);
    expect(parseRetryAfter('Tue, 24 Nov 2026 12:05:00 GMT', now)).toBe(300);
    expect(parseRetryAfter('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
