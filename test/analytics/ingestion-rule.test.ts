import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as endLiveSession } from '../../functions/analytics/end-live-session.ts';
import { handler as recordLiveEvents } from '../../functions/analytics/record-live-events.ts';
import { handler as recordLiveHeartbeat } from '../../functions/analytics/record-live-heartbeat.ts';
import { handler as recordVideoAds } from '../../functions/analytics/record-video-ads.ts';
import { handler as recordVideoError } from '../../functions/analytics/record-video-error.ts';
import { handler as recordVideoEvents } from '../../functions/analytics/record-video-events.ts';
import { handler as recordVideoQuality } from '../../functions/analytics/record-video-quality.ts';
import { handler as startLiveSession } from '../../functions/analytics/start-live-session.ts';
import { handler as startVideoSession } from '../../functions/analytics/start-video-session.ts';
import { type AnalyticsRecord, useSink } from '../../shared/analytics/sink.ts';
import { clock } from '../../shared/clock.ts';
import { db } from '../../shared/db/client.ts';
import type { LambdaHandler } from '../../shared/http/handler.ts';
import { apiEvent } from '../support/events.ts';

/**
 * Issue 14 item 9: what real players send. No `event_id` → the server assigns one (only client ids
 * de-duplicate); no client time → the receive time, except in batches; `timestamp` is the client
 * time too. Handlers are called directly; the sink is an in-memory stand-in, and DynamoDB (the
 * routes' rate-limit counters, an on-demand start's playback item) a stand-in that accepts every
 * write within budget.
 */
const NOW = new Date('2026-11-23T12:00:00.000Z');
const realNow = clock.now;
/** A UUID: v4 (event ids the server assigns) or v7 (session ids, carrying the start time). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let delivered: AnalyticsRecord[];
beforeEach(() => {
  delivered = [];
  useSink({ put: async (records) => void delivered.push(...records) });
  clock.now = () => NOW;
  vi.spyOn(db, 'send').mockResolvedValue({ Attributes: { count: 1 } } as never);
});
afterEach(() => {
  vi.restoreAllMocks();
  useSink(undefined);
  clock.now = realNow;
});

const call = async (handler: LambdaHandler, route: string, body: unknown) => {
  const response = await handler(apiEvent({ route: `POST ${route}`, body }));
  return { status: response.statusCode, body: JSON.parse(String(response.body)) };
};
const session_id = randomUUID();
const video = { device_type: 'web', session_id, content_id: 'ep_0001_s1e01' };
const live = { device_type: 'roku', session_id, channel_id: 'ch_0001' };

describe('session start without event_id or client_ts', () => {
  it.each([
    [
      startVideoSession,
      '/analytics/video/session/start',
      { device_type: 'ios', content_id: 'ep_0001_s1e01' },
    ],
    [startLiveSession, '/analytics/live/session/start', { device_type: 'ios', channel_id: 'ch_0001' }],
  ] as const)('%#: is accepted with a server id and the receive time', async (handler, route, body) => {
    const res = await call(handler, route, body);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      session_id: expect.stringMatching(UUID),
      heartbeat_interval_seconds: 30,
    });
    expect(delivered).toEqual([
      expect.objectContaining({
        type: 'start',
        session_id: res.body.data.session_id,
        event_id: expect.stringMatching(UUID),
        client_ts: NOW.toISOString(),
        client_ts_ms: NOW.getTime(),
        received_at: NOW.toISOString(),
      }),
    ]);
  });

  it('gives every id-less event its own id, and keeps a client id as the de-duplication key', async () => {
    const body = { device_type: 'web', content_id: 'ep_0001_s1e01' };
    const event_id = randomUUID();
    for (const b of [body, body, { ...body, event_id }, { ...body, event_id }])
      expect((await call(startVideoSession, '/analytics/video/session/start', b)).status).toBe(201);
    const ids = delivered.map((r) => r.event_id);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids.slice(2)).toEqual([event_id, event_id]);
  });

  it('reads `timestamp` (ISO 8601 with offset) as the client time; client_ts wins when both are sent', async () => {
    const route = '/analytics/video/session/start';
    const body = { device_type: 'web', content_id: 'ep_0001_s1e01' };
    await call(startVideoSession, route, { ...body, timestamp: '2026-11-23T13:59:58.500+02:00' });
    await call(startVideoSession, route, {
      ...body,
      client_ts: '2026-11-23T11:59:50Z',
      timestamp: '2026-11-23T11:00:00Z',
    });
    expect(delivered.map((r) => [r.client_ts, r.client_ts_ms])).toEqual([
      ['2026-11-23T13:59:58.500+02:00', Date.parse('2026-11-23T11:59:58.500Z')],
      ['2026-11-23T11:59:50Z', Date.parse('2026-11-23T11:59:50Z')],
    ]);
    expect(delivered.every((r) => !('timestamp' in r))).toBe(true);
  });

  it('still refuses a malformed id or time (422 naming the field)', async () => {
    const route = '/analytics/video/session/start';
    const body = { device_type: 'web', content_id: 'ep_0001_s1e01' };
    for (const [extra, field] of [
      [{ timestamp: 1795473042715 }, 'timestamp'],
      [{ timestamp: '23/11/2026' }, 'timestamp'],
      [{ client_ts: '2026-11-23T12:00:00' }, 'client_ts'],
      [{ event_id: 'abc' }, 'event_id'],
    ] as const) {
      const res = await call(startVideoSession, route, { ...body, ...extra });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect(delivered).toEqual([]);
  });
});

describe('the same rule on every event sent as it happens', () => {
  it.each([
    [recordLiveHeartbeat, '/analytics/live/session/heartbeat', { ...live, playing_seconds: 30 }],
    [endLiveSession, '/analytics/live/session/end', { ...live, reason: 'user_exit' }],
    [
      recordVideoQuality,
      '/analytics/video/quality',
      { ...video, bitrate_kbps: 3000, width: 1280, height: 720 },
    ],
    [recordVideoError, '/analytics/video/error', { ...video, code: 'E1', message: 'x', fatal: false }],
  ] as const)(
    '%#: no event_id, no client_ts → 200, server id and receive time',
    async (handler, route, body) => {
      const res = await call(handler, route, body);
      expect(res.status).toBe(200);
      expect(delivered).toEqual([
        expect.objectContaining({ event_id: expect.stringMatching(UUID), client_ts_ms: NOW.getTime() }),
      ]);
    },
  );
});

describe('batched events', () => {
  const at = '2026-11-23T11:59:00Z';
  it.each([
    [recordVideoEvents, '/analytics/video/events', { ...video, type: 'play' }],
    [recordVideoAds, '/analytics/video/ads', { ...video, type: 'adstart' }],
    [recordLiveEvents, '/analytics/live/events', { ...live, type: 'reaction', emoji: '🔥' }],
    [recordLiveEvents, '/analytics/live/events', { ...live, type: 'epg_change', program_id: 'pg_1' }],
  ] as const)(
    '%#: need a client time (client_ts or timestamp) but no event_id',
    async (handler, route, item) => {
      const missing = await call(handler, route, { events: [{ ...item, client_ts: at }, item] });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([{ field: 'events.1.client_ts', message: expect.any(String) }]);
      expect(delivered).toEqual([]);
      const ok = await call(handler, route, {
        events: [
          { ...item, client_ts: at },
          { ...item, timestamp: at },
        ],
      });
      expect(ok.status).toBe(200);
      expect(delivered.map((r) => r.client_ts_ms)).toEqual([Date.parse(at), Date.parse(at)]);
      expect(new Set(delivered.map((r) => r.event_id)).size).toBe(2);
    },
  );
});

describe("the player's labels (player_name, player_version, client_version: dimensions the reports show)", () => {
  it('are display text: a control or bidi override character is a 422 naming the field, nothing is stored (were stored as sent)', async () => {
    for (const [field, value] of [
      ['player_name', 'hls.js\u202Egpj'],
      ['player_version', '1.7\u0000'],
      ['client_version', '3.12\u001B[2J'],
    ] as const) {
      const res = await call(startVideoSession, '/analytics/video/session/start', {
        device_type: 'web',
        content_id: 'ep_0001_s1e01',
        [field]: value,
      });
      expect(res.status, field).toBe(422);
      expect(res.body.errors[0].field, field).toBe(field);
    }
    expect(delivered).toEqual([]);
    const ok = await call(startVideoSession, '/analytics/video/session/start', {
      device_type: 'web',
      content_id: 'ep_0001_s1e01',
      player_name: 'ExoPlayer (حقيقي)',
      player_version: '2.19.1',
    });
    expect(ok.status).toBe(201);
  });
});
