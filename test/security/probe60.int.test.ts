import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { BUCKET_SECONDS, channelAudience } from '../../shared/audience/viewer-counter.ts';
import { heartbeat, startWatching } from '../../shared/watch/watch-playback.ts';
import { stopWatching } from '../../shared/watch/watch-sessions.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * The outside probe of 2026-12-01 (stop 60) of the catalogue, studio, live, chat, webhooks and
 * analytics routes: each defect it found shown failing on the code before its fix, and the
 * attacks it tried that the platform already refused, kept as regression tests.
 */
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

describe('forged viewer counts', () => {
  /**
   * A live channel no other suite watches (viewer-dedup takes the middle of the open live
   * channels, the watch suites the last), at fixed instants four days after the seed, so its
   * buckets hold this test's sessions only.
   */
  const channel = () => {
    const open = generateCatalog({ now: api.seededAt, seed: 42 }).creators.filter(
      (c) => c.live && !c.channel.requires_subscription,
    );
    const creator = open[Math.floor(open.length / 3)]!;
    return { id: creator.id, channel: creator.channel.channel_id };
  };
  const bucketAfter = (days: number) => {
    const later = api.seededAt.getTime() + days * 86_400_000;
    return later - (later % (BUCKET_SECONDS * 1000));
  };

  it('one account opening and ending watch sessions over and over counts at most its stream limit (3) in a bucket, not once per open (was one viewer per open)', async () => {
    const live = channel();
    const start = bucketAfter(4);
    const at = (ms: number) => new Date(start + ms);
    const body = {
      channel_id: live.channel,
      device_type: 'web' as const,
      quality: 'auto' as const,
      timezone: 'UTC',
    };
    const account = `acc_probe60_${randomUUID()}`;
    let last = '';
    for (let i = 0; i < 12; i++) {
      const opened = await startWatching(live.id, account, body, at(1_000 + i * 2_000));
      last = opened.session.session_id;
      if (i < 11) await stopWatching(live.id, account, last, at(2_000 + i * 2_000));
    }
    // A second viewer is one more.
    await startWatching(live.id, `acc_probe60_${randomUUID()}`, body, at(30_000));
    const audience = await channelAudience(live.channel, at(40_000), { maxAgeMs: 0 });
    expect(audience.current.total).toBe(4);
    expect(audience.peaks.today).toBe(4);
    // The session still open is counted again in the next bucket by its first heartbeat, as any.
    const next = BUCKET_SECONDS * 1000;
    expect((await heartbeat(live.id, account, last, at(next + 1_000))).session_valid).toBe(true);
    expect((await channelAudience(live.channel, at(next + 10_000), { maxAgeMs: 0 })).current.total).toBe(4);
  });
});
