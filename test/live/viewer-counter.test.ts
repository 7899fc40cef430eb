import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEVICE_TYPES } from '../../shared/catalog/model.ts';
import { db } from '../../shared/db/client.ts';
import { BUCKET_SECONDS, countPresence, VIEWER_SHARDS } from '../../shared/live/viewer-counter.ts';

afterEach(() => vi.restoreAllMocks());

describe('viewer counters under 100,000 concurrent viewers', () => {
  it('keep every counter item well under 500 writes per second', async () => {
    const writes = new Map<string, number>();
    vi.spyOn(db, 'send').mockImplementation(async (command: any) => {
      const key = `${command.input.Key.PK}|${command.input.Key.SK}`;
      writes.set(key, (writes.get(key) ?? 0) + 1);
      return {} as never;
    });
    const viewers = 100_000;
    const start = Date.UTC(2026, 10, 22, 20, 0, 0);
    // Two minutes of heartbeats: each viewer beats every 30 s at its own random phase.
    for (let v = 0; v < viewers; v++) {
      const phase = Math.random() * BUCKET_SECONDS * 1000;
      for (let t = phase; t < 120_000; t += BUCKET_SECONDS * 1000) {
        await countPresence('ch_hot', DEVICE_TYPES[v % DEVICE_TYPES.length]!, new Date(start + t));
      }
    }
    const perSecond = [...writes.values()].map((n) => n / BUCKET_SECONDS);
    const worst = Math.max(...perSecond);
    // Each item lives for one 30 s bucket: its writes spread over those 30 seconds.
    expect(writes.size).toBe(4 * VIEWER_SHARDS);
    expect(worst).toBeLessThan(500);
    expect(worst).toBeGreaterThan((viewers / BUCKET_SECONDS / VIEWER_SHARDS) * 0.8);
    console.info(`viewer counters: ${writes.size} items, worst ${worst.toFixed(0)} writes/s per item`);
  });
});
