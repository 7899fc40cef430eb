import { afterEach, describe, expect, it } from 'vitest';
import { countryOf, senderOf, toRecord } from '../../shared/analytics/ingest.ts';
import { type AnalyticsRecord, useSink } from '../../shared/analytics/sink.ts';
import { changedTitleRows, exportTitles, titleRowsOf } from '../../shared/analytics/title-dimension.ts';
import { eventsSql, renderSql } from '../../analytics/metrics.ts';
import { periodOf, zoneOffsetMs } from '../../analytics/period.ts';

afterEach(() => useSink(undefined));

const show = {
  entity: 'show',
  id: 'sh_0001',
  title: 'Office Sketches',
  creator_id: 'cr_0001',
  category: 'comedy',
  views_7d: 10,
};
const creator = {
  entity: 'creator',
  id: 'cr_0001',
  name: 'Maya Lopez',
  category: 'comedy',
  subscribers: 10,
  channel: { channel_id: 'ch_0001', channel_name: 'Maya Live' },
};

describe('analytics dimensions', () => {
  it('takes a coarse country from a CDN header only, never from the address', () => {
    expect(countryOf({ 'cloudfront-viewer-country': 'fr' })).toBe('FR');
    expect(countryOf({ 'cloudfront-viewer-country': 'France' })).toBe('unknown');
    expect(countryOf({ 'x-forwarded-for': '203.0.113.9' })).toBe('unknown');
    const now = new Date('2026-11-22T20:00:00Z');
    const record = toRecord(
      {
        type: 'heartbeat',
        session_id: 's',
        content_id: 'ep_1',
        device_type: 'web',
        position_seconds: 1,
        playing_seconds: 1,
      },
      'video',
      senderOf({ now, headers: { 'cloudfront-viewer-country': 'DE', 'x-forwarded-for': '203.0.113.9' } }),
    );
    expect(record.country).toBe('DE');
    expect(JSON.stringify(record)).not.toContain('203.0.113.9');
  });

  it('has a title row per episode, show, creator and channel; a counter update changes none', () => {
    expect(titleRowsOf(creator)).toEqual([
      {
        id: 'cr_0001',
        kind: 'creator',
        title: 'Maya Lopez',
        show_id: null,
        creator_id: null,
        category: 'comedy',
      },
      {
        id: 'ch_0001',
        kind: 'channel',
        title: 'Maya Live',
        show_id: null,
        creator_id: 'cr_0001',
        category: 'comedy',
      },
    ]);
    expect(
      titleRowsOf({
        entity: 'episode',
        id: 'ep_1',
        title: 'Pilot',
        show_id: 'sh_0001',
        creator_id: 'cr_0001',
      }),
    ).toEqual([
      {
        id: 'ep_1',
        kind: 'episode',
        title: 'Pilot',
        show_id: 'sh_0001',
        creator_id: 'cr_0001',
        category: null,
      },
    ]);
    expect(titleRowsOf({ entity: 'account', id: 'acc_1' })).toEqual([]);
    expect(changedTitleRows(show, { ...show, views_7d: 11 })).toEqual([]);
    expect(changedTitleRows(show, { ...show, title: 'Office Sketches II' })).toEqual([
      {
        id: 'sh_0001',
        kind: 'show',
        title: 'Office Sketches II',
        show_id: null,
        creator_id: 'cr_0001',
        category: 'comedy',
      },
    ]);
    expect(changedTitleRows(creator, undefined)).toEqual([]); // a deleted creator keeps its last rows
  });

  it('exports changed rows as catalog records, and a sink failure never fails the projection', async () => {
    const written: AnalyticsRecord[] = [];
    useSink({ put: async (records) => void written.push(...records) });
    const now = new Date('2026-11-22T20:00:00Z');
    await exportTitles(undefined, show, now);
    await exportTitles(show, { ...show, subscribers: 3 }, now);
    expect(written).toEqual([
      expect.objectContaining({
        family: 'catalog',
        type: 'title',
        id: 'sh_0001',
        title: 'Office Sketches',
        received_at: now.toISOString(),
      }),
    ]);
    useSink({
      put: async () =>
        Promise.reject(Object.assign(new Error('down'), { name: 'ServiceUnavailableException' })),
    });
    await expect(exportTitles(undefined, creator, now)).resolves.toBeUndefined();
  });

  it('prunes partitions to the period (receive hours from 1 h before to 3 h after) on both engines', () => {
    const period = periodOf('2026-11-22', '2026-11-22', 'Europe/Paris');
    expect(period).toEqual({
      fromMs: Date.parse('2026-11-21T23:00:00Z'),
      toMs: Date.parse('2026-11-22T23:00:00Z'),
    });
    expect(zoneOffsetMs('Europe/Paris', period.fromMs)).toBe(3_600_000);
    const sql = eventsSql({ ...period, grain: 'hour' });
    expect(sql).toContain("e.dt BETWEEN '2026-11-21' AND '2026-11-23'");
    expect(sql).toContain("e.dt || e.hour BETWEEN '2026-11-2122' AND '2026-11-2302'");
    const athena = renderSql('SELECT {{p95(x)}} FROM {{events}} e', 'athena', {
      ...period,
      grain: 'day',
      by: 'device',
    });
    expect(athena).toContain('approx_percentile(x, 0.95)');
    expect(athena).not.toContain('{{');
  });
});
