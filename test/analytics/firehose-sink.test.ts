import { describe, expect, it } from 'vitest';
import {
  type AnalyticsRecord,
  chunkForFirehose,
  type FirehoseLike,
  firehoseSink,
} from '../../shared/analytics/sink.ts';

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

/** A Firehose stand-in that fails a fraction of records per call (seeded), and remembers what it stored. */
const flakyFirehose = (failRate: number, seed = 7) => {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const stored: string[] = [];
  let calls = 0;
  const client: FirehoseLike = {
    putRecordBatch: async ({ Records }) => {
      calls++;
      expect(Records.length).toBeLessThanOrEqual(500);
      expect(Records.reduce((n, r) => n + r.Data.length, 0)).toBeLessThanOrEqual(4 * 1024 * 1024);
      const responses = Records.map((r) => {
        if (random() < failRate) return { ErrorCode: 'ServiceUnavailableException' };
        stored.push(JSON.parse(Buffer.from(r.Data).toString()).event_id);
        return { RecordId: 'ok' };
      });
      return { FailedPutCount: responses.filter((r) => r.ErrorCode).length, RequestResponses: responses };
    },
  };
  return { client, stored, calls: () => calls };
};

describe('Firehose sink', () => {
  it('delivers every accepted event exactly once when a fraction of records fail', async () => {
    const { client, stored, calls } = flakyFirehose(0.3);
    const sink = firehoseSink(client, 'stream', { attempts: 12, sleep: async () => {} });
    const records = Array.from({ length: 1234 }, (_, i) => record(i));
    await sink.put(records);
    expect(stored.length).toBe(1234);
    expect(new Set(stored).size).toBe(1234);
    expect(calls()).toBeGreaterThan(3);
  });

  it('answers 503 rather than dropping records that keep failing', async () => {
    const { client } = flakyFirehose(1);
    const sink = firehoseSink(client, 'stream', { attempts: 3, sleep: async () => {} });
    await expect(sink.put([record(1)])).rejects.toMatchObject({ status: 503 });
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
