import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMetrics } from '../../analytics/metrics.ts';
import { type ClientEvent, toRecord } from '../../shared/analytics/ingest.ts';
import { fileSink } from '../../scripts/local/file-sink.ts';

/**
 * Issue 34 item 3 (fixed with issue 33's sessions): a `playing` event dated before its session's
 * start (the start carries no client time, so it is the server's receive time, and the player's
 * clock is behind) is left out of the startup time instead of giving a negative median; watch
 * time says how many of its sessions are on demand and how many live.
 */
const T = Date.parse('2026-11-22T20:00:00Z');
const DAY = { fromMs: Date.parse('2026-11-22T00:00:00Z'), toMs: Date.parse('2026-11-23T00:00:00Z') };
const iso = (ms: number) => new Date(T + ms).toISOString();

describe('session metrics with skewed client clocks and both families', () => {
  it('leaves out a playing event before its start, and splits watch-time sessions by family', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skew-'));
    const sink = fileSink(() => dir);
    const video = (session_id: string, startAt: number, playingTs: number) => [
      toRecord(
        { type: 'start', session_id, content_id: 'ep_a', device_type: 'web' } as ClientEvent,
        'video',
        { now: new Date(T + startAt) },
      ),
      toRecord(
        {
          type: 'playing',
          session_id,
          content_id: 'ep_a',
          device_type: 'web',
          client_ts: iso(playingTs),
        } as ClientEvent,
        'video',
        { now: new Date(T + startAt + 1_000) },
      ),
    ];
    const live = toRecord(
      { type: 'start', session_id: 'live-1', channel_id: 'ch_1', device_type: 'web' } as ClientEvent,
      'live',
      { now: new Date(T) },
    );
    // Session "skewed": the player's clock is 6.3 s behind; "fine": 800 ms to the first frame.
    await sink.put([...video('skewed', 0, -6_300), ...video('fine', 0, 800), live]);
    const metrics = await runMetrics(dir, { ...DAY, grain: 'total' }, ['startup_time', 'watch_time']);
    expect(metrics.get('startup_time')).toEqual([
      expect.objectContaining({ sessions_started_playing: 1, startup_ms_median: 800, startup_ms_p95: 800 }),
    ]);
    expect(metrics.get('watch_time')).toEqual([
      expect.objectContaining({ sessions: 3, vod_sessions: 2, live_sessions: 1 }),
    ]);
  });
});
