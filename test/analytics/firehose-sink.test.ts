import { describe, expect, it } from 'vitest';
import { type AnalyticsRecord, chunkForFirehose, firehoseSink } from '../../shared/analytics/sink.ts';
import { faultyFirehose } from '../support/faults.ts';

const record = (i: number, pad = 0): AnalyticsRecord => ({
  event_id: `e${i}`,
  family: 'video',
  type: 'play',
  session_id: 's',
  received_at: '2026-11-22T20:00:00.000Z',
  received_at_ms: 0,
  client_ts_ms: 0,
  pad: 'x'.repeat(pad),
});

describe('Firehose sink', () => {
  it('delivers every accepted event exactly once when a fraction of records fail', async () => {
    const { client, stored, stats } = faultyFirehose({ recordFailRate: 0.3 });
    const sink = firehoseSink(client, 'stream', { attempts: 12, sleep: async () => {} });
    const records = Array.from({ length: 1234 }, (_, i) => record(i));
    await sink.put(records);
    expect(stored.length).toBe(1234);
    expect(new Set(stored).size).toBe(1234);
    expect(stats.calls).toBeGreaterThan(3);
    expect(stats.largestBatch).toBeLessThanOrEqual(500);
    expect(stats.largestBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('answers 503 rather than dropping records that keep failing', async () => {
    const { client, stats } = faultyFirehose({ recordFailRate: 1 });
    const sink = firehoseSink(client, 'stream', { attempts: 3, sleep: async () => {} });
    await expect(sink.put([record(1)])).rejects.toMatchObject({ kind: 'unavailable' });
    expect(stats.calls).toBe(3);
  });

  it('chunks within 500 records and 4 MiB per call', () => {
    expect(chunkForFirehose(Array.from({ length: 1001 }, (_, i) => record(i))).map((c) => c.length)).toEqual([
      500, 500, 1,
    ]);
    const big = chunkForFirehose(Array.from({ length: 10 }, (_, i) => record(i, 1024 * 1024)));
    for (const chunk of big)
      expect(chunk.reduce((n, d) => n + d.length, 0)).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(big.length).toBeGreaterThan(2);
  });
});
