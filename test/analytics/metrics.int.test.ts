import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMetrics } from '../../analytics/metrics.ts';
import { type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
const dir = mkdtempSync(join(tmpdir(), 'analytics-'));
beforeAll(async () => {
  process.env.ANALYTICS_DIR = dir;
  api = await testApi();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-22T20:00:00Z');
const at = (ms: number) => new Date(T + ms).toISOString();
const ev = (extra: Record<string, unknown>) => ({ event_id: randomUUID(), device_type: 'web', ...extra });

/** Known truth: 9 sessions play after a known startup time, 3 of them stall; 1 fails fatally before playing. */
const STARTUPS = [500, 700, 900, 1100, 1300, 1500, 1700, 1900, 2100];
const STALLS: Record<number, number> = { 0: 2000, 1: 3000, 2: 1000 };

describe('analytics from player events to metrics', () => {
  it('accepts the session lifecycle over HTTP and every metric query computes the known truth in DuckDB', async () => {
    for (let i = 0; i < 10; i++) {
      const content_id = i < 6 ? 'ep_a' : 'ep_b';
      const start = await api.post('/analytics/video/session/start', {
        body: ev({ content_id, client_ts: at(i * 100_000) }),
      });
      expect(start.status).toBe(201);
      expect(start.body.data).toMatchObject({
        session_id: expect.any(String),
        heartbeat_interval_seconds: 30,
      });
      const session_id = start.body.data.session_id;
      const t0 = i * 100_000;
      const base = { session_id, content_id };
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
        expect((await api.post('/analytics/video/events', { body: { events } })).body.data.accepted).toBe(
          events.length,
        );
        const hb = await api.post('/analytics/video/session/heartbeat', {
          body: ev({ ...base, position_seconds: 30, playing_seconds: 30, client_ts: at(t0 + 31_000) }),
        });
        expect(hb.status).toBe(200);
        await api.post('/analytics/video/quality', {
          body: ev({
            ...base,
            position_seconds: 31,
            bitrate_kbps: 3000,
            width: 1280,
            height: 720,
            client_ts: at(t0 + 32_000),
          }),
        });
        await api.post('/analytics/video/session/end', {
          body: ev({
            ...base,
            position_seconds: 60,
            playing_seconds: 30,
            reason: 'completed',
            client_ts: at(t0 + 70_000),
          }),
        });
      } else {
        await api.post('/analytics/video/error', {
          body: ev({
            ...base,
            code: 'MEDIA_ERR_DECODE',
            message: 'decode failed',
            fatal: true,
            client_ts: at(t0 + 800),
          }),
        });
        await api.post('/analytics/video/session/end', {
          body: ev({ ...base, position_seconds: 0, reason: 'error', client_ts: at(t0 + 70_000) }),
        });
      }
    }
    for (let i = 0; i < 3; i++) {
      const live = await api.post('/analytics/live/session/start', {
        body: ev({ channel_id: 'ch_0001', client_ts: at(5_000 + i) }),
      });
      const session_id = live.body.data.session_id;
      await api.post('/analytics/live/events', {
        body: {
          events: [
            ev({
              session_id,
              channel_id: 'ch_0001',
              type: 'reaction',
              emoji: '🔥',
              client_ts: at(6_000 + i),
            }),
          ],
        },
      });
      await api.post('/analytics/live/session/heartbeat', {
        body: ev({ session_id, channel_id: 'ch_0001', playing_seconds: 30, client_ts: at(35_000 + i) }),
      });
    }

    const m = await runMetrics(dir);
    expect(m.get('views')).toEqual([
      { content_id: 'ep_a', views: 6 },
      { content_id: 'ep_b', views: 4 },
    ]);
    expect(m.get('unique_viewers')).toEqual([
      { family: 'live', unique_viewers: 3 },
      { family: 'video', unique_viewers: 10 },
    ]);
    expect(m.get('startup_time')).toEqual([
      { sessions_started_playing: 9, startup_ms_median: 1300, startup_ms_p95: 2020 },
    ]);
    expect(m.get('rebuffering')).toEqual([
      { rebuffer_percentage: 1.1, rebuffers_per_minute: 0.333, rebuffer_count: 3 },
    ]);
    expect(m.get('playback_failures')).toEqual([
      { failed_sessions: 1, sessions: 10, failure_percentage: 10 },
    ]);
    expect(m.get('exits_before_start')).toEqual([{ exits_before_start: 1, percentage: 10 }]);
    expect(m.get('playing_time')).toEqual([
      { family: 'live', playing_time_seconds: 90 },
      { family: 'video', playing_time_seconds: 540 },
    ]);
    expect(m.get('watch_time')).toEqual([
      { family: 'live', watch_time_seconds: 90, sessions: 3 },
      { family: 'video', watch_time_seconds: 700, sessions: 10 },
    ]);
    expect(m.get('live_concurrent_viewers')).toEqual([{ channel_id: 'ch_0001', minute_ms: T, viewers: 3 }]);
    expect(m.get('top_content')?.[0]).toEqual({ content_id: 'ep_a', views: 6, playing_seconds: 360 });
  });

  it('rejects a batch with one bad event (422 naming it) and writes nothing', async () => {
    const session_id = randomUUID();
    const good = ev({ session_id, content_id: 'ep_x', type: 'play', client_ts: at(0) });
    const bad = ev({ session_id, content_id: 'ep_x', type: 'teleport', client_ts: at(0) });
    const res = await api.post('/analytics/video/events', { body: { events: [good, bad] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('events.1.type');
    const tooMany = await api.post('/analytics/video/events', {
      body: { events: Array.from({ length: 101 }, () => good) },
    });
    expect(tooMany.status).toBe(422);
    const m = await runMetrics(dir, ['views']);
    expect(m.get('views')?.some((r) => r.content_id === 'ep_x')).toBe(false);
  });
});
