import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { BUCKET_SECONDS, channelAudience } from '../../shared/audience/viewer-counter.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { heartbeat, startWatching } from '../../shared/watch/watch-playback.ts';
import { stopWatching } from '../../shared/watch/watch-sessions.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';

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

describe('bad input is a 4xx in the envelope', () => {
  it('a cue payload nested 5,000 deep (a 10 KB body) is a 422 naming payload, not a 500 (the display-text walk and the size check overflowed the stack)', async () => {
    const creator = await studioCreator(api);
    for (const depth of [5_000, 50_000]) {
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      for (const payload of [
        `{"a":${nested}}`,
        `{"a":${'{"a":'.repeat(depth / 5)}1${'}'.repeat(depth / 5)}}`,
      ]) {
        const res = await api.post('/studio/channel/cues', {
          token: creator.token,
          rawBody: `{"type":"poll.open","payload":${payload}}`,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['payload']);
      }
    }
    // A viewer's token is refused the same way (validation before the route's own checks).
    const viewer = (await issueAccessToken(`acc_probe60_${randomUUID()}`, new Date())).token;
    const res = await api.post('/studio/channel/cues', {
      token: viewer,
      rawBody: `{"type":"poll.open","payload":{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
  });
});

describe('query strings', () => {
  it('a page number past 2^53 is refused once in the 400, not twice (its two failed checks named it twice)', async () => {
    for (const path of ['/creators', '/shows', '/creators/live', '/shows/episodes/most-viewed']) {
      const res = await api.get(`${path}?page=99999999999999999999`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'Invalid query parameter page: page must be a whole number between 1 and 10000',
      );
    }
  });

  it('duplicated, array-shaped and odd numeric query values are 400s or ignored, never a 5xx (sound)', async () => {
    const cases: [string, number][] = [
      ['/creators?limit=1&limit=2', 400],
      ['/creators?category=comedy&category=music', 400],
      ['/creators?limit[]=1', 200],
      ['/creators?limit=NaN', 400],
      ['/creators?limit=Infinity', 400],
      ['/creators?limit=-0', 400],
      ['/creators?page=1.5', 400],
      ['/shows?is_new=true&is_new=false', 400],
      ['/creators/cr_0001/channel/schedule?timezone=Europe/London&timezone=UTC', 400],
      ['/creators/cr_0001/channel/schedule?date=2026-02-30', 400],
      ['/creators/cr_0001/channel/schedule?from=23:30&to=00:30', 400],
      ['/creators/cr_0001/channel/schedule?timezone=..%2F..%2Fetc', 400],
      ['/tv/v3/guide/schedule?hours=99999', 400],
      ['/tv/v3/guide/schedule?channel_id=ch_0001&channel_id=ch_0002', 400],
      ['/creators/cr_0002/channel/ondemand?season=1e10', 400],
      ['/creators/search?q=%00', 200],
      ['/shows/search?q=%ED%A0%80', 200],
      ['/creators/%2F', 400],
      ['/creators/..%2F..%2Fshows', 400],
      ['/shows/%E2%80%AE', 400],
      ['/creators/%2E%2E', 404],
      ['/creators/__proto__', 404],
      [`/shows/${'a'.repeat(5000)}`, 400],
    ];
    for (const [path, status] of cases) expect((await api.get(path)).status, path).toBe(status);
  });
});
