import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Dimension,
  type Grain,
  metrics,
  openAnalytics,
  type Row,
  runMetrics,
} from '../../analytics/metrics.ts';
import { exportTitles } from '../../shared/analytics/title-dimension.ts';
import type { EpisodeRecord } from '../../shared/catalog/model.ts';
import { episodeItem } from '../../shared/shows/show-repository.ts';
import { useSink } from '../../shared/analytics/sink.ts';
import { fileSink } from '../../scripts/local/file-sink.ts';
import { clock } from '../../shared/clock.ts';
import { projectRecord } from '../../shared/projection/projector.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Known truth (issue 20): synthetic sessions with known answers per device, per hour and per
 * dimension, sent through the HTTP endpoints; every metric query is checked exactly in DuckDB.
 *
 * On demand, 10 sessions: 0-5 start in hour 20:00Z, 6-9 in hour 21:00Z; sessions 0-5 play
 * `ep_a` ("Office Sketches: Episode 1"), 6-9 `ep_b` ("Night Drive: Pilot"). Devices: 0-4 web
 * (hls.js 1.7.4, client 3.12.0, country FR, 1080p), 5-7 ios (avplayer 18.1, client 3.11.2, US,
 * 720p), 8-9 roku (nothing optional: unknown). Sessions 0-8 start playing after STARTUPS[i] ms,
 * play 30 s + 30 s and end at +70 s; 0-2 stall (STALLS); 9 fails fatally before playing.
 * Live, 3 appletv sessions on ch_0001 ("Maya Live"): start at 20:00:05, heartbeat at 20:00:35;
 * sessions 0-1 heartbeat again at 20:01:05 (3 viewers in minute 20:00, 2 in 20:01).
 */
let api: TestApi;
const dir = mkdtempSync(join(tmpdir(), 'analytics-'));
const T = Date.parse('2026-11-22T20:00:00Z');
const realNow = clock.now;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(T + ms).toISOString();
const ev = (extra: Record<string, unknown>) => ({ event_id: randomUUID(), ...extra });

const STARTUPS = [500, 700, 900, 1100, 1300, 1500, 1700, 1900, 2100];
const STALLS: Record<number, number> = { 0: 2000, 1: 3000, 2: 1000 };
const DEVICE = (i: number) =>
  i < 5
    ? {
        body: {
          device_type: 'web',
          player_name: 'hls.js',
          player_version: '1.7.4',
          client_version: '3.12.0',
        },
        headers: { 'cloudfront-viewer-country': 'FR' },
        height: 1080,
      }
    : i < 8
      ? {
          body: {
            device_type: 'ios',
            player_name: 'avplayer',
            player_version: '18.1',
            client_version: '3.11.2',
          },
          headers: { 'cloudfront-viewer-country': 'us' },
          height: 720,
        }
      : { body: { device_type: 'roku' }, headers: {} as Record<string, string>, height: undefined };
const EP_A = 'Office Sketches: Episode 1';
const EP_B = 'Night Drive: Pilot';

const episodeChange = (id: string, show: string, creator: string, title: string): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: {
    NewImage: marshall({
      ...episodeItem({
        id,
        show_id: show,
        creator_id: creator,
        title,
        season: 1,
        episode_number: 1,
      } as EpisodeRecord),
      version: 1,
    }) as never,
  },
});

beforeAll(async () => {
  process.env.ANALYTICS_DIR = dir;
  // Received two hours after the first event: the events' date partition is the period's day.
  clock.now = () => new Date(T + 2 * HOUR);
  api = await testApi();
  // The title dimension: episodes through the projector's hook, shows and creators through the
  // same module (their projection needs whole catalogue records).
  useSink(fileSink(() => dir));
  try {
    // A renamed episode: the newest row names it.
    await projectRecord(
      episodeChange('ep_a', 'sh_kt_a', 'cr_kt_a', 'Office Sketches: Ep 1 (draft)'),
      new Date(T + HOUR),
    );
    await projectRecord(episodeChange('ep_a', 'sh_kt_a', 'cr_kt_a', EP_A), clock.now());
    await projectRecord(episodeChange('ep_b', 'sh_kt_b', 'cr_kt_b', EP_B), clock.now());
    const now = clock.now();
    await exportTitles(
      undefined,
      { entity: 'show', id: 'sh_kt_a', title: 'Office Sketches', creator_id: 'cr_kt_a', category: 'comedy' },
      now,
    );
    await exportTitles(
      undefined,
      { entity: 'show', id: 'sh_kt_b', title: 'Night Drive', creator_id: 'cr_kt_b', category: 'music' },
      now,
    );
    await exportTitles(
      undefined,
      {
        entity: 'creator',
        id: 'cr_kt_a',
        name: 'Maya Lopez',
        category: 'comedy',
        channel: { channel_id: 'ch_0001', channel_name: 'Maya Live' },
      },
      now,
    );
    await exportTitles(
      undefined,
      { entity: 'creator', id: 'cr_kt_b', name: 'Theo Park', category: 'music', channel: {} },
      now,
    );
    // Subscriptions to Maya: one started at 20:00, another expired at 21:00, so every payment
    // metric answers at every grain (their figures: test/analytics/payment-facts.test.ts).
    const fact = (type: string, ms: number, amount: number, account: string) => ({
      event_id: randomUUID(),
      family: 'payment' as const,
      type,
      creator_id: 'cr_kt_a',
      account_id: account,
      kind: 'subscription',
      currency: 'usd',
      amount,
      platform_fee: 0,
      net: amount,
      plan_amount: 499,
      billing_interval: 'month',
      monthly_amount: 499,
      occurred_at: at(ms),
      occurred_at_ms: T + ms,
      received_at: now.toISOString(),
      received_at_ms: now.getTime(),
      client_ts_ms: T + ms,
    });
    await fileSink(() => dir).put([
      fact('subscription.started', 0, 499, 'acc_kt_1'),
      fact('subscription.expired', HOUR, 0, 'acc_kt_2'),
    ]);
  } finally {
    useSink(undefined);
  }
}, 60_000);
afterAll(() => {
  clock.now = realNow;
  rmSync(dir, { recursive: true, force: true });
});

const DAY = { fromMs: Date.parse('2026-11-22T00:00:00Z'), toMs: Date.parse('2026-11-23T00:00:00Z') };
/** One metric's rows for a grain and breakdown, without the bucket when it is the whole day. */
const run = async (name: string, grain: Grain, by?: Dimension): Promise<Row[]> => {
  const rows = (await runMetrics(dir, { ...DAY, grain, by }, [name])).get(name)!;
  return grain === 'total' ? rows.map(({ bucket_ms, ...rest }) => rest) : rows;
};

describe('analytics from player events to metrics, over time and by dimension', () => {
  it('accepts the sessions over HTTP', async () => {
    for (let i = 0; i < 10; i++) {
      const content_id = i < 6 ? 'ep_a' : 'ep_b';
      const device = DEVICE(i);
      const t0 = i < 6 ? i * 100_000 : HOUR + (i - 6) * 100_000;
      const post = async (path: string, body: Record<string, unknown>) => {
        const res = await api.post(path, { body, headers: device.headers });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        return res;
      };
      const start = await post(
        '/analytics/video/session/start',
        ev({ ...device.body, content_id, client_ts: at(t0) }),
      );
      expect(start.body.data).toMatchObject({
        session_id: expect.any(String),
        heartbeat_interval_seconds: 30,
      });
      const base = {
        session_id: start.body.data.session_id,
        content_id,
        device_type: device.body.device_type,
      };
      if (i < 9) {
        const events = [
          ev({ ...base, type: 'playerready', client_ts: at(t0 + 100) }),
          ev({ ...base, type: 'playing', position_seconds: 0, client_ts: at(t0 + STARTUPS[i]!) }),
        ];
        if (STALLS[i]) {
          events.push(
            ev({ ...base, type: 'rebufferstart', position_seconds: 10, client_ts: at(t0 + 20_000) }),
          );
          events.push(
            ev({
              ...base,
              type: 'rebufferend',
              position_seconds: 10,
              rebuffer_ms: STALLS[i],
              client_ts: at(t0 + 20_000 + STALLS[i]!),
            }),
          );
        }
        expect((await post('/analytics/video/events', { events })).body.data.accepted).toBe(events.length);
        await post(
          '/analytics/video/session/heartbeat',
          ev({ ...base, position_seconds: 30, playing_seconds: 30, client_ts: at(t0 + 31_000) }),
        );
        if (device.height)
          await post(
            '/analytics/video/quality',
            ev({
              ...base,
              position_seconds: 31,
              bitrate_kbps: 3000,
              width: 1280,
              height: device.height,
              client_ts: at(t0 + 32_000),
            }),
          );
        await post(
          '/analytics/video/session/end',
          ev({
            ...base,
            position_seconds: 60,
            playing_seconds: 30,
            reason: 'completed',
            client_ts: at(t0 + 70_000),
          }),
        );
      } else {
        await post(
          '/analytics/video/error',
          ev({
            ...base,
            code: 'MEDIA_ERR_DECODE',
            message: 'decode failed',
            fatal: true,
            client_ts: at(t0 + 800),
          }),
        );
        await post(
          '/analytics/video/session/end',
          ev({ ...base, position_seconds: 0, reason: 'error', client_ts: at(t0 + 70_000) }),
        );
      }
    }
    for (let i = 0; i < 3; i++) {
      const live = { device_type: 'appletv', channel_id: 'ch_0001' };
      const started = await api.post('/analytics/live/session/start', {
        body: ev({ ...live, client_ts: at(5_000 + i) }),
      });
      const session_id = started.body.data.session_id;
      await api.post('/analytics/live/events', {
        body: {
          events: [ev({ ...live, session_id, type: 'reaction', emoji: '🔥', client_ts: at(6_000 + i) })],
        },
      });
      for (const beat of i < 2 ? [35_000, 65_000] : [35_000]) {
        const res = await api.post('/analytics/live/session/heartbeat', {
          body: ev({ ...live, session_id, playing_seconds: 30, client_ts: at(beat + i) }),
        });
        expect(res.status).toBe(200);
      }
    }
  });

  it('views and unique viewers: by device, per hour, by title, show, creator, category, player, client, country, quality', async () => {
    expect(await run('views', 'total', 'device')).toEqual([
      { dimension: 'ios', views: 3 },
      { dimension: 'roku', views: 2 },
      { dimension: 'web', views: 5 },
    ]);
    expect(await run('views', 'hour')).toEqual([
      { bucket_ms: T, dimension: 'all', views: 6 },
      { bucket_ms: T + HOUR, dimension: 'all', views: 4 },
    ]);
    expect(await run('views', 'hour', 'device')).toEqual([
      { bucket_ms: T, dimension: 'ios', views: 1 },
      { bucket_ms: T, dimension: 'web', views: 5 },
      { bucket_ms: T + HOUR, dimension: 'ios', views: 2 },
      { bucket_ms: T + HOUR, dimension: 'roku', views: 2 },
    ]);
    // Days in Europe/Paris start at 23:00Z: the offset moves the bucket, not the count.
    expect((await runMetrics(dir, { ...DAY, grain: 'day', offsetMs: HOUR }, ['views'])).get('views')).toEqual(
      [{ bucket_ms: Date.parse('2026-11-21T23:00:00Z'), dimension: 'all', views: 10 }],
    );
    expect(await run('views', 'total', 'title')).toEqual([
      { dimension: EP_B, views: 4 },
      { dimension: EP_A, views: 6 },
    ]);
    expect(await run('views', 'total', 'show')).toEqual([
      { dimension: 'Night Drive', views: 4 },
      { dimension: 'Office Sketches', views: 6 },
    ]);
    expect(await run('views', 'total', 'creator')).toEqual([
      { dimension: 'Maya Lopez', views: 6 },
      { dimension: 'Theo Park', views: 4 },
    ]);
    expect(await run('views', 'total', 'category')).toEqual([
      { dimension: 'comedy', views: 6 },
      { dimension: 'music', views: 4 },
    ]);
    expect(await run('views', 'total', 'player')).toEqual([
      { dimension: 'avplayer 18.1', views: 3 },
      { dimension: 'hls.js 1.7.4', views: 5 },
      { dimension: 'unknown', views: 2 },
    ]);
    expect(await run('views', 'total', 'client')).toEqual([
      { dimension: '3.11.2', views: 3 },
      { dimension: '3.12.0', views: 5 },
      { dimension: 'unknown', views: 2 },
    ]);
    expect(await run('views', 'total', 'country')).toEqual([
      { dimension: 'FR', views: 5 },
      { dimension: 'US', views: 3 },
      { dimension: 'unknown', views: 2 },
    ]);
    expect(await run('views', 'total', 'quality')).toEqual([
      { dimension: '1080p', views: 5 },
      { dimension: '720p', views: 3 },
      { dimension: 'unknown', views: 2 },
    ]);
    expect(await run('unique_viewers', 'total', 'family')).toEqual([
      { dimension: 'live', unique_viewers: 3 },
      { dimension: 'on demand', unique_viewers: 10 },
    ]);
    expect(await run('unique_viewers', 'hour')).toEqual([
      { bucket_ms: T, dimension: 'all', unique_viewers: 9 },
      { bucket_ms: T + HOUR, dimension: 'all', unique_viewers: 4 },
    ]);
  });

  it('startup time median and p95: overall, by device, per hour', async () => {
    expect(await run('startup_time', 'total')).toEqual([
      { dimension: 'all', sessions_started_playing: 9, startup_ms_median: 1300, startup_ms_p95: 2020 },
    ]);
    expect(await run('startup_time', 'total', 'device')).toEqual([
      { dimension: 'ios', sessions_started_playing: 3, startup_ms_median: 1700, startup_ms_p95: 1880 },
      { dimension: 'roku', sessions_started_playing: 1, startup_ms_median: 2100, startup_ms_p95: 2100 },
      { dimension: 'web', sessions_started_playing: 5, startup_ms_median: 900, startup_ms_p95: 1260 },
    ]);
    expect(await run('startup_time', 'hour')).toEqual([
      {
        bucket_ms: T,
        dimension: 'all',
        sessions_started_playing: 6,
        startup_ms_median: 1000,
        startup_ms_p95: 1450,
      },
      {
        bucket_ms: T + HOUR,
        dimension: 'all',
        sessions_started_playing: 3,
        startup_ms_median: 1900,
        startup_ms_p95: 2080,
      },
    ]);
  });

  it('rebuffering, exits before start and playback failures: by device and per hour', async () => {
    expect(await run('rebuffering', 'total', 'device')).toEqual([
      { dimension: 'appletv', rebuffer_percentage: 0, rebuffers_per_minute: 0, rebuffer_count: 0 },
      { dimension: 'ios', rebuffer_percentage: 0, rebuffers_per_minute: 0, rebuffer_count: 0 },
      { dimension: 'roku', rebuffer_percentage: 0, rebuffers_per_minute: 0, rebuffer_count: 0 },
      // 6,000 ms stalled against 5 × 60 s played: 6,000 / 306,000; 3 stalls in 5 minutes.
      { dimension: 'web', rebuffer_percentage: 1.96, rebuffers_per_minute: 0.6, rebuffer_count: 3 },
    ]);
    expect(await run('rebuffering', 'hour')).toEqual([
      // 6 on-demand sessions × 60 s and 150 s of live: 6,000 / 516,000; 3 stalls in 8.5 minutes.
      {
        bucket_ms: T,
        dimension: 'all',
        rebuffer_percentage: 1.16,
        rebuffers_per_minute: 0.353,
        rebuffer_count: 3,
      },
      {
        bucket_ms: T + HOUR,
        dimension: 'all',
        rebuffer_percentage: 0,
        rebuffers_per_minute: 0,
        rebuffer_count: 0,
      },
    ]);
    expect(await run('exits_before_start', 'total', 'device')).toEqual([
      { dimension: 'appletv', exits_before_start: 0, sessions: 3, percentage: 0 },
      { dimension: 'ios', exits_before_start: 0, sessions: 3, percentage: 0 },
      { dimension: 'roku', exits_before_start: 1, sessions: 2, percentage: 50 },
      { dimension: 'web', exits_before_start: 0, sessions: 5, percentage: 0 },
    ]);
    expect(await run('exits_before_start', 'hour')).toEqual([
      { bucket_ms: T, dimension: 'all', exits_before_start: 0, sessions: 9, percentage: 0 },
      { bucket_ms: T + HOUR, dimension: 'all', exits_before_start: 1, sessions: 4, percentage: 25 },
    ]);
    expect(await run('playback_failures', 'total', 'device')).toEqual([
      { dimension: 'ios', failed_sessions: 0, sessions: 3, failure_percentage: 0 },
      { dimension: 'roku', failed_sessions: 1, sessions: 2, failure_percentage: 50 },
      { dimension: 'web', failed_sessions: 0, sessions: 5, failure_percentage: 0 },
    ]);
    expect(await run('playback_failures', 'hour')).toEqual([
      { bucket_ms: T, dimension: 'all', failed_sessions: 0, sessions: 6, failure_percentage: 0 },
      { bucket_ms: T + HOUR, dimension: 'all', failed_sessions: 1, sessions: 4, failure_percentage: 25 },
    ]);
  });

  it('playing and watch time: by device and per hour', async () => {
    expect(await run('playing_time', 'total', 'device')).toEqual([
      { dimension: 'appletv', playing_time_seconds: 150 },
      { dimension: 'ios', playing_time_seconds: 180 },
      { dimension: 'roku', playing_time_seconds: 60 },
      { dimension: 'web', playing_time_seconds: 300 },
    ]);
    expect(await run('playing_time', 'hour', 'family')).toEqual([
      { bucket_ms: T, dimension: 'live', playing_time_seconds: 150 },
      { bucket_ms: T, dimension: 'on demand', playing_time_seconds: 360 },
      { bucket_ms: T + HOUR, dimension: 'on demand', playing_time_seconds: 180 },
    ]);
    expect(await run('watch_time', 'total', 'device')).toEqual([
      { dimension: 'appletv', watch_time_seconds: 150, sessions: 3, vod_sessions: 0, live_sessions: 3 },
      { dimension: 'ios', watch_time_seconds: 210, sessions: 3, vod_sessions: 3, live_sessions: 0 },
      { dimension: 'roku', watch_time_seconds: 140, sessions: 2, vod_sessions: 2, live_sessions: 0 },
      { dimension: 'web', watch_time_seconds: 350, sessions: 5, vod_sessions: 5, live_sessions: 0 },
    ]);
    expect(await run('watch_time', 'hour')).toEqual([
      {
        bucket_ms: T,
        dimension: 'all',
        watch_time_seconds: 570,
        sessions: 9,
        vod_sessions: 6,
        live_sessions: 3,
      },
      {
        bucket_ms: T + HOUR,
        dimension: 'all',
        watch_time_seconds: 280,
        sessions: 4,
        vod_sessions: 4,
        live_sessions: 0,
      },
    ]);
  });

  it('live concurrent viewers count viewers per minute, the peak per hour, by channel title', async () => {
    expect(await run('live_concurrent_viewers', 'minute')).toEqual([
      { bucket_ms: T, dimension: 'all', viewers: 3 },
      { bucket_ms: T + 60_000, dimension: 'all', viewers: 2 },
    ]);
    expect(await run('live_concurrent_viewers', 'hour', 'title')).toEqual([
      { bucket_ms: T, dimension: 'Maya Live', viewers: 3 },
    ]);
    expect(await run('live_concurrent_viewers', 'total', 'creator')).toEqual([
      { dimension: 'Maya Lopez', viewers: 3 },
    ]);
  });

  it('top content names titles, ranked per breakdown value', async () => {
    expect(await run('top_content', 'total')).toEqual([
      { dimension: 'all', place: 1, title: EP_A, content_id: 'ep_a', views: 6, playing_seconds: 360 },
      { dimension: 'all', place: 2, title: EP_B, content_id: 'ep_b', views: 4, playing_seconds: 180 },
    ]);
    expect(await run('top_content', 'total', 'device')).toEqual([
      { dimension: 'ios', place: 1, title: EP_B, content_id: 'ep_b', views: 2, playing_seconds: 120 },
      { dimension: 'ios', place: 2, title: EP_A, content_id: 'ep_a', views: 1, playing_seconds: 60 },
      { dimension: 'roku', place: 1, title: EP_B, content_id: 'ep_b', views: 2, playing_seconds: 60 },
      { dimension: 'web', place: 1, title: EP_A, content_id: 'ep_a', views: 5, playing_seconds: 300 },
    ]);
  });

  it('every metric answers for every dimension and grain (no query is left out)', async () => {
    const names = [...metrics().keys()];
    expect(names).toHaveLength(14);
    for (const grain of ['minute', 'day'] as const) {
      const all = await runMetrics(dir, { ...DAY, grain, by: 'quality' });
      for (const name of names) expect(all.get(name)?.length, `${name} per ${grain}`).toBeGreaterThan(0);
    }
  });

  it('rejects a batch with one bad event (422 naming it) and writes nothing', async () => {
    const session_id = randomUUID();
    const good = ev({ session_id, content_id: 'ep_x', device_type: 'web', type: 'play', client_ts: at(0) });
    const bad = ev({
      session_id,
      content_id: 'ep_x',
      device_type: 'web',
      type: 'teleport',
      client_ts: at(0),
    });
    const res = await api.post('/analytics/video/events', { body: { events: [good, bad] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('events.1.type');
    const tooMany = await api.post('/analytics/video/events', {
      body: { events: Array.from({ length: 101 }, () => good) },
    });
    expect(tooMany.status).toBe(422);
    const analytics = await openAnalytics(dir);
    try {
      expect(await analytics.query("SELECT count(*) AS n FROM events WHERE content_id = 'ep_x'")).toEqual([
        { n: 0 },
      ]);
    } finally {
      analytics.close();
    }
  });
});
