import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../shared/backoff.ts';

const samples = (attempt: number, baseMs: number, capMs?: number) =>
  Array.from({ length: 2_000 }, () => backoffMs(attempt, baseMs, capMs));

describe('backoffMs: exponential backoff with full jitter', () => {
  it('waits up to baseMs times 2 to the attempt, spread over the whole range', () => {
    for (const attempt of [1, 2, 3]) {
      const bound = 20 * 2 ** attempt;
      const waits = samples(attempt, 20);
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...waits)).toBeLessThan(bound);
      // Full jitter: some retries go almost at once and some near the bound, so callers spread out.
      expect(waits.filter((w) => w < bound / 4).length).toBeGreaterThan(300);
      expect(waits.filter((w) => w > (bound * 3) / 4).length).toBeGreaterThan(300);
    }
  });

  it('never waits longer than the cap, 1 s unless given', () => {
    expect(Math.max(...samples(12, 20))).toBeLessThan(1_000);
    expect(Math.max(...samples(12, 20, 250))).toBeLessThan(250);
    expect(Math.max(...samples(12, 20, 250))).toBeGreaterThan(200);
  });
});
