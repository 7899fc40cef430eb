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

/**
 * A live channel no other suite watches (viewer-dedup takes the middle of the open live channels,
 * the watch suites the last): the viewer-count test uses it at fixed instants four days after the
 * seed, so its buckets hold that test's sessions only.
 */
const channel = () => {
  const open = generateCatalog({ now: api.seededAt, seed: 42 }).creators.filter(
    (c) => c.live && !c.channel.requires_subscription,
  );
  const creator = open[Math.floor(open.length / 3)]!;
  return { id: creator.id, channel: creator.channel.channel_id };
};

describe('forged viewer counts', () => {
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

describe('sound: what the probe tried that the platform refused', () => {
  it("another creator cannot edit, delete or add to a creator's show or its episodes by naming their ids (404, the owner's show unchanged)", async () => {
    const [owner, other] = [await studioCreator(api), await studioCreator(api)];
    const show = await api.post('/studio/shows', {
      token: owner.token,
      body: { title: 'Owned show', description: 'x', category: 'music', rating: 'TV-G' },
    });
    expect(show.status).toBe(201);
    const showId: string = show.body.data.show_id ?? show.body.data.id;
    const episode = await api.post(`/studio/shows/${showId}/episodes`, {
      token: owner.token,
      body: { season: 1, episode_number: 1, title: 'Paid one', duration_seconds: 60, is_free: false },
    });
    expect(episode.status).toBe(201);
    const episodeId: string = episode.body.data.episode_id ?? episode.body.data.id;
    const theirs = await api.post('/studio/shows', {
      token: other.token,
      body: { title: 'Other show', description: 'x', category: 'music', rating: 'TV-G' },
    });
    const theirShow: string = theirs.body.data.show_id ?? theirs.body.data.id;
    const attempts = [
      api.patch(`/studio/shows/${showId}`, { token: other.token, body: { title: 'pwned' } }),
      api.delete(`/studio/shows/${showId}`, { token: other.token }),
      api.post(`/studio/shows/${showId}/episodes`, {
        token: other.token,
        body: { season: 1, episode_number: 2, title: 'Planted', duration_seconds: 60, is_free: true },
      }),
      // The episode named under the attacker's own show, and under the owner's.
      api.patch(`/studio/shows/${theirShow}/episodes/${episodeId}`, {
        token: other.token,
        body: { is_free: true },
      }),
      api.patch(`/studio/shows/${showId}/episodes/${episodeId}`, {
        token: other.token,
        body: { is_free: true },
      }),
      api.delete(`/studio/shows/${theirShow}/episodes/${episodeId}`, { token: other.token }),
      api.delete(`/studio/shows/${showId}/episodes/${episodeId}`, { token: other.token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    const viewer = (await issueAccessToken(`acc_probe60_${randomUUID()}`, new Date())).token;
    const detail = await api.get(`/shows/${showId}`, { token: viewer });
    expect(detail.body.data.title).toBe('Owned show');
    expect(detail.body.data.episodes).toHaveLength(1);
    expect(detail.body.data.episodes[0]).toMatchObject({ is_locked: true, stream_url: null });
  });

  it("a creator who does not moderate another's channel cannot change its chat rules nor ban in it (403)", async () => {
    const [owner, other] = [await studioCreator(api), await studioCreator(api)];
    const settings = await api.put(`/studio/chat/settings?channel=${owner.creatorId}`, {
      token: other.token,
      body: { slow_mode_seconds: 5 },
    });
    expect(settings.status).toBe(403);
    const ban = await api.post(`/studio/chat/bans?channel=${owner.creatorId}`, {
      token: other.token,
      body: { account_id: `acc_probe60_${randomUUID()}`, duration_seconds: 60, reason: 'spam' },
    });
    expect(ban.status).toBe(403);
  });

  it('the gated channel (cr_0001) gives a non-subscriber no signed URL on any public route, and no chat, realtime or live-reaction access', async () => {
    const viewer = (await issueAccessToken(`acc_probe60_${randomUUID()}`, new Date())).token;
    for (const path of [
      '/creators/cr_0001/channel/live',
      '/creators/cr_0001/channel/live/metadata',
      '/home/live',
      '/creators/live?limit=100',
      '/creators/cr_0001',
      '/tv/v3/creators/cr_0001',
    ]) {
      const res = await api.get(path, { token: viewer });
      expect(res.status, path).toBe(200);
      expect(JSON.stringify(res.body), path).not.toMatch(/token=|Signature=|Key-Pair-Id=/);
    }
    expect((await api.get('/creators/cr_0001/channel/live/realtime', { token: viewer })).status).toBe(403);
    expect((await api.post('/creators/cr_0001/channel/chat/token', { token: viewer })).status).toBe(403);
    expect((await api.get('/creators/cr_0001/channel/live/stream', { token: viewer })).status).toBe(403);
    const react = await api.post('/creators/cr_0001/channel/live/reactions', {
      token: viewer,
      body: { emoji: '🔥' },
    });
    expect(react.status).toBe(403);
    // The gated channel's id in the body of an open channel's watch route opens nothing.
    const open = channel();
    const cross = await api.post(`/creators/${open.id}/channel/live/watch`, {
      token: viewer,
      body: { channel_id: 'ch_0001', device_type: 'web' },
    });
    expect(cross.status).toBe(404);
  });

  it('four POST /studio/channel at once make one channel: one 201, the others 200 with the same channel', async () => {
    const creator = await studioCreator(api);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api.post('/studio/channel', { token: creator.token })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    const arns = new Set(answers.map((r) => r.body.data.channel_arn));
    expect(arns.size).toBe(1);
    expect([...arns][0]).toMatch(/^arn:aws:ivs:/);
  });
});
