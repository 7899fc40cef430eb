import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bucketsSql, GRAINS, runMetrics } from '../../analytics/metrics.ts';
import { bucketStarts, offsetChanges, periodOf, zoneOffsetMs } from '../../analytics/period.ts';
import { type ClientEvent, toRecord } from '../../shared/analytics/ingest.ts';
import { fileSink } from '../../scripts/local/file-sink.ts';

/**
 * The analytics command's buckets across a daylight-saving change (time52 found one offset used
 * for the whole period, so after a change every day started an hour off local midnight): days and
 * hours follow Europe/Paris's wall time, in the bucket list and in the SQL alike.
 */
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const paris = (from: string, to: string) => {
  const { fromMs, toMs } = periodOf(from, to, 'Europe/Paris');
  return {
    fromMs,
    toMs,
    offsetMs: zoneOffsetMs('Europe/Paris', fromMs),
    changes: offsetChanges('Europe/Paris', fromMs, toMs),
  };
};

/** The bucket starts of a Paris period at `grain`, across its changes. */
const startsOf = (from: string, to: string, grain: 'day' | 'hour') => {
  const { fromMs, toMs, offsetMs, changes } = paris(from, to);
  return bucketStarts(fromMs, toMs, GRAINS[grain], offsetMs, changes);
};

describe('offset changes in a period', () => {
  it('finds each change to the millisecond, and none where the zone keeps its offset', () => {
    expect(paris('2027-03-27', '2027-03-29').changes).toEqual([
      { at: Date.parse('2027-03-28T01:00:00Z'), before: HOUR, after: 2 * HOUR },
    ]);
    expect(paris('2027-10-30', '2027-10-31').changes).toEqual([
      { at: Date.parse('2027-10-31T01:00:00Z'), before: 2 * HOUR, after: HOUR },
    ]);
    for (const zone of ['UTC', 'Asia/Kathmandu'])
      expect(
        offsetChanges(zone, Date.parse('2027-01-01T00:00:00Z'), Date.parse('2028-01-01T00:00:00Z')),
      ).toEqual([]);
  });

  it('starts days at local midnight (23 and 25 hours long) and lists each local hour once', () => {
    expect(startsOf('2027-03-27', '2027-03-29', 'day').map(iso)).toEqual([
      '2027-03-26T23:00:00.000Z',
      '2027-03-27T23:00:00.000Z',
      '2027-03-28T22:00:00.000Z',
    ]);
    expect(startsOf('2027-10-30', '2027-10-31', 'day').map(iso)).toEqual([
      '2027-10-29T22:00:00.000Z',
      '2027-10-30T22:00:00.000Z',
    ]);
    const hours = startsOf('2027-03-28', '2027-03-28', 'hour');
    expect(hours).toHaveLength(23); // 02:00 is skipped
    expect(hours.every((h, i) => i === 0 || h - hours[i - 1]! === HOUR)).toBe(true);
    const autumnHours = startsOf('2027-10-31', '2027-10-31', 'hour');
    // 25 hours of time in 24 local hours: the repeated 02:00 is one bucket of 2 hours.
    expect(autumnHours).toHaveLength(24);
    expect(autumnHours[2]! - autumnHours[1]!).toBe(HOUR);
    expect(autumnHours[3]! - autumnHours[2]!).toBe(2 * HOUR);
  });
});

describe('the metrics SQL across a change', () => {
  const dir = mkdtempSync(join(tmpdir(), 'offset-changes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts each event in its local day, and lists the same days as the report', async () => {
    const start = (session_id: string, at: string) =>
      toRecord(
        { type: 'start', session_id, content_id: 'ep_a', device_type: 'web' } as ClientEvent,
        'video',
        {
          now: new Date(at),
        },
      );
    // Local times: Mar 27 23:30, Mar 28 00:30, Mar 28 23:30 (summer time), Mar 29 00:30.
    await fileSink(() => dir).put([
      start('s1', '2027-03-27T22:30:00Z'),
      start('s2', '2027-03-27T23:30:00Z'),
      start('s3', '2027-03-28T21:30:00Z'),
      start('s4', '2027-03-28T22:30:00Z'),
    ]);
    const { fromMs, toMs, offsetMs, changes } = paris('2027-03-27', '2027-03-29');
    const slice = { fromMs, toMs, grain: 'day' as const, offsetMs, offsetChanges: changes };
    expect((await runMetrics(dir, slice, ['views'])).get('views')).toEqual([
      { bucket_ms: Date.parse('2027-03-26T23:00:00Z'), dimension: 'all', views: 1 },
      { bucket_ms: Date.parse('2027-03-27T23:00:00Z'), dimension: 'all', views: 2 },
      { bucket_ms: Date.parse('2027-03-28T22:00:00Z'), dimension: 'all', views: 1 },
    ]);
    expect(bucketsSql('duckdb', slice)).toContain(
      `(CAST(${Date.parse('2027-03-27T23:00:00Z')} AS BIGINT), CAST(${Date.parse('2027-03-28T22:00:00Z')} AS BIGINT))`,
    );
  });
});
