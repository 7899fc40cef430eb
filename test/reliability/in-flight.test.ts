import { describe, expect, it } from 'vitest';
import { mapInFlight } from '../../shared/in-flight.ts';

describe('mapInFlight (shared/in-flight.ts)', () => {
  it('runs at most `limit` at once, every item once, results in order', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    const results = await mapInFlight(
      Array.from({ length: 25 }, (_, i) => i),
      4,
      async (i) => {
        most = Math.max(most, ++inFlight);
        seen.push(i);
        await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
        inFlight--;
        return i * 2;
      },
    );
    expect(most).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
    expect(await mapInFlight([], 4, async () => 1)).toEqual([]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapInFlight([1, 2, 3], 2, async (i) => {
        if (i === 2) throw new Error('two');
        return i;
      }),
    ).rejects.toThrow('two');
  });
});
