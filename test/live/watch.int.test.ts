import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/clock.ts';
import { BUCKET_SECONDS } from '../../shared/audience/viewer-counter.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { entitlement } from '../support/entitlements.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { channelIdOfPlaybackUrl, playbackClaimsOf, viaLocalCdn } from '../support/playback.ts';
import { subscribePaid } from '../support/payments.ts';
import { applyEntitlement } from '../../shared/entitlements/entitlement-repository.ts';

let api: TestApi;
let open: { id: string; channel: string }; // live, no subscription needed
let offline: { id: string; channel: string };
const gated = { id: 'cr_0001', channel: 'ch_0001' };
const realNow = clock.now;

beforeAll(async () => {
  api = await testApi();
  const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  const o = catalog.creators.find((c) => c.live && !c.channel.requires_subscription)!;
  const f = catalog.creators.find((c) => !c.live)!;
  open = { id: o.id, channel: o.channel.channel_id };
  offline = { id: f.id, channel: f.channel.channel_id };
});
afterEach(() => {
  clock.now = realNow;
});

const viewer = async () => (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;
const base = (id: string) => `/creators/${id}/channel`;
const openSession = (
  creator: { id: string; channel: string },
  token: string,
  extra: Record<string, unknown> = {},
) =>
  api.post(`${base(creator.id)}/live/watch`, {
    token,
    body: {
      channel_id: creator.channel,
      device_type: 'web',
      quality: '720p',
      timezone: 'Asia/Kathmandu',
      ...extra,
    },
  });

describe('watch session lifecycle', () => {
  it('opens, changes quality, heartbeats, ends, and is never valid after', async () => {
    const token = await viewer();
    const opened = await openSession(open, token);
    expect(opened.status).toBe(200);
    const data = opened.body.data;
    expect(data.session).toMatchObject({
      session_id: expect.any(String),
      heartbeat_interval_seconds: 30,
      device_type: 'web',
    });
    expect(Date.parse(data.session.expires_at)).toBeGreaterThan(Date.parse(data.session.started_at));
    expect(data.stream).toMatchObject({
      stream_id: expect.any(String),
      quality: '720p',
      token: expect.any(String),
      latency_mode: 'low',
      health: 'good',
    });
    expect(data.stream.available_qualities[0]).toEqual({ label: '1080p', bitrate_kbps: 6000 });
    expect(data.creator).toEqual({ id: open.id, name: expect.any(String), is_verified: expect.any(Boolean) });
    expect(data.viewers.watching_now).toBeGreaterThanOrEqual(1);
    expect(data.epg).toMatchObject({
      timezone: 'Asia/Kathmandu',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(data.epg.current_program.start_time).toMatch(/\+05:45$/);
    // The IVS playback URL with the ES384 token IVS checks (docs/live.md "Playback tokens").
    const url = new URL(data.stream.stream_url);
    expect(url.searchParams.get('token')).toBe(data.stream.token);
    const claims = playbackClaimsOf(data.stream.token);
    expect(claims['aws:channel-arn']).toMatch(new RegExp(`:channel/${channelIdOfPlaybackUrl(url.href)}$`));
    expect(claims['aws:viewer-id']).toMatch(/^acc_[0-9a-f-]{36}$/);
    // The web app's origin, and locally the IVS stand-in's loopback origin (its player page).
    const ivs = new URL(process.env.IVS_ENDPOINT!);
    expect(claims['aws:access-control-allow-origin']).toBe(
      `https://creators.example.com,${ivs.origin},http://localhost:${ivs.port}`,
    );
    const exp = Number(claims.exp) * 1000;
    expect(exp).toBe(Date.parse(data.stream.token_expires_at));
    expect(exp - Date.now()).toBeGreaterThan(60_000);
    expect(exp - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const sid = data.session.session_id;

    const patched = await api.patch(`${base(open.id)}/live/watch`, {
      token,
      body: { session_id: sid, quality: '1080p' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      session_id: sid,
      quality: '1080p',
      stream_url: expect.stringMatching(/^https?:\/\//),
    });
    expect(patched.body.data.token).not.toBe(data.stream.token);
    expect(new URL(patched.body.data.stream_url).searchParams.get('token')).toBe(patched.body.data.token);
    expect(playbackClaimsOf(patched.body.data.token)['aws:channel-arn']).toBe(claims['aws:channel-arn']);

    const qualities = await api.get(`${base(open.id)}/live/qualities?session_id=${sid}`, { token });
    expect(qualities.body.data.current_quality).toBe('1080p');
    expect(qualities.body.data.available_qualities[0]).toMatchObject({
      value: 'auto',
      description: expect.any(String),
    });

    const beat = await api.get(`${base(open.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect(beat.status).toBe(200);
    expect(beat.body.data).toMatchObject({
      session_id: sid,
      session_valid: true,
      next_heartbeat_seconds: 30,
    });
    expect(Date.parse(beat.body.data.expires_at)).toBeGreaterThanOrEqual(Date.parse(data.session.expires_at));
    expect(beat.body.data.stream).toMatchObject({ is_live: true, health: 'good', token: expect.any(String) });
    expect(beat.body.data.viewers).toMatchObject({
      watching_now: expect.any(Number),
      delta: expect.any(Number),
    });
    expect(beat.body.data.epg.current_program).toMatchObject({
      program_id: expect.any(String),
      progress_percent: expect.any(Number),
    });

    // The first heartbeat of the next viewer-count bucket (1 s into it, the lease still running)
    // renews the lease to 90 s past that bucket's end; the ones before it wrote nothing.
    const bucketEnd = Date.parse(beat.body.data.expires_at) - 90_000;
    clock.now = () => new Date(bucketEnd + 1_000);
    const renewed = await api.get(`${base(open.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect(renewed.body.data).toMatchObject({
      session_valid: true,
      expires_at: new Date(bucketEnd + BUCKET_SECONDS * 1000 + 90_000).toISOString(),
    });
    clock.now = realNow;

    const ended = await api.delete(`${base(open.id)}/live/watch?session_id=${sid}`, { token });
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe('Watch session ended');
    expect(ended.body.data).toMatchObject({
      session_id: sid,
      watch_duration_seconds: expect.any(Number),
      watch_duration_formatted: expect.stringMatching(/^\d{2}:\d{2}$/),
    });

    const after = await api.get(`${base(open.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ session_valid: false, reason: 'ended' });
    expect(after.body.data).not.toHaveProperty('stream');
    expect(
      (await api.patch(`${base(open.id)}/live/watch`, { token, body: { session_id: sid, quality: '480p' } }))
        .status,
    ).toBe(410);
    const again = await api.delete(`${base(open.id)}/live/watch?session_id=${sid}`, { token });
    expect(again.body.data.ended_at).toBe(ended.body.data.ended_at);
  });

  it('expires a session that stops heartbeating (controlled clock), and frees its slot', async () => {
    const token = await viewer();
    const opened = (await openSession(open, token)).body.data.session;
    const sid = opened.session_id;
    const later = new Date(Date.now() + 5 * 60_000);
    clock.now = () => later;
    const beat = await api.get(`${base(open.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect(beat.body.data).toMatchObject({ session_valid: false, reason: 'expired' });
    // The operations on the session answer 410 alike (docs/live.md "A session that has ended").
    const gone = {
      status: 'error',
      code: 410,
      message: 'Watch session expired; open a new one with POST /creators/{id}/channel/live/watch',
    };
    const patched = await api.patch(`${base(open.id)}/live/watch`, {
      token,
      body: { session_id: sid, quality: '480p' },
    });
    expect({ status: patched.status, body: patched.body }).toEqual({ status: 410, body: gone });
    const qualities = await api.get(`${base(open.id)}/live/qualities?session_id=${sid}`, { token });
    expect({ status: qualities.status, body: qualities.body }).toEqual({ status: 410, body: gone });
    // Playback, which is not addressed to a session, has no open one to play from: 409.
    expect((await api.get(`${base(open.id)}/live/stream`, { token })).status).toBe(409);
    const ended = await api.delete(`${base(open.id)}/live/watch?session_id=${sid}`, { token });
    // Watched until its lease began: the end of the 2-minute bucket it was last counted in.
    expect(ended.body.data.watch_duration_seconds).toBe(
      Math.round((Date.parse(opened.expires_at) - 90_000 - Date.parse(opened.started_at)) / 1000),
    );
    expect(ended.body.data.ended_at).toBe(new Date(Date.parse(opened.expires_at) - 90_000).toISOString());
    // Three more sessions fit: the expired one no longer counts.
    for (let i = 0; i < 3; i++) expect((await openSession(open, token)).status).toBe(200);
  });
});

describe('rules', () => {
  it('says the session_id query parameter is missing when a DELETE sends it in the body', async () => {
    const token = await viewer();
    const sid = (await openSession(open, token)).body.data.session.session_id;
    const res = await api.delete(`${base(open.id)}/live/watch`, { token, body: { session_id: sid } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Missing required query parameter session_id');
    expect((await api.delete(`${base(open.id)}/live/watch?session_id=${sid}`, { token })).status).toBe(200);
  });

  it('404 when the creator has no live stream; offline channel view with a message', async () => {
    const res = await openSession(offline, await viewer());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: 'error',
      code: 404,
      message: 'No active live stream for this creator',
    });
    const channel = await api.get(`${base(offline.id)}/live`);
    expect(channel.body.data).toMatchObject({
      creator_id: offline.id,
      is_live: false,
      channel: { stream: null },
      message: expect.any(String),
    });
  });

  it('403 on a gated channel without a subscription; subscribing unlocks it; the demo viewer is subscribed', async () => {
    const token = await viewer();
    const denied = await openSession(gated, token);
    expect(denied.status).toBe(403);
    // Subscribing is a paid checkout now (issue 36): no access until Stripe says it was paid.
    const checkout = await api.post(`/creators/${gated.id}/subscription`, { token });
    expect(checkout.status).toBe(201);
    expect((await openSession(gated, token)).status).toBe(403);
    await subscribePaid(api, token, gated.id);
    expect((await openSession(gated, token)).status).toBe(200);
    const demo = (await issueAccessToken('acc_demo_viewer', new Date())).token;
    expect((await openSession(gated, demo)).status).toBe(200);
  });

  it('a gated session stops being renewed once its subscription no longer grants: the first heartbeat of the next bucket answers 403', async () => {
    const accountId = `acc_${randomUUID()}`;
    const token = (await issueAccessToken(accountId, new Date())).token;
    const now = new Date();
    const subscription = entitlement({
      account_id: accountId,
      creator_id: gated.id,
      valid_until: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      started_at: now.toISOString(),
      observed_at: now.getTime(),
    });
    await applyEntitlement(subscription);
    const opened = await openSession(gated, token);
    expect(opened.status).toBe(200);
    const sid = opened.body.data.session.session_id;
    const beat = await api.get(`${base(gated.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect(beat.body.data.session_valid).toBe(true);
    // Refunded mid-stream: the subscription no longer grants access.
    await applyEntitlement({ ...subscription, status: 'refunded', observed_at: now.getTime() + 1 });
    // The first heartbeat of the next bucket (the lease still running) would renew the lease and
    // sign a new playback token: it checks the subscription as opening does.
    const bucketEnd = Date.parse(beat.body.data.expires_at) - 90_000;
    clock.now = () => new Date(bucketEnd + 1_000);
    const refused = await api.get(`${base(gated.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect({ status: refused.status, message: refused.body.message, data: refused.body.data }).toEqual({
      status: 403,
      message: 'This channel requires an active subscription',
      data: undefined,
    });
    // Not renewed: the session lapses at the lease it had.
    clock.now = () => new Date(bucketEnd + 91_000);
    const lapsed = await api.get(`${base(gated.id)}/live/heartbeat?session_id=${sid}`, { token });
    expect(lapsed.body.data).toMatchObject({ session_valid: false, reason: 'expired' });
  });

  it('429 past 3 concurrent streams: 20 parallel opens give exactly 3', async () => {
    const token = await viewer();
    const results = await Promise.all(Array.from({ length: 20 }, () => openSession(open, token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(17);
    expect(limited[0]!.body.message).toContain('concurrent streams');
    expect(limited[0]!.headers.get('ratelimit')).toBeNull();
  });

  it('a session belongs to the account that opened it', async () => {
    const owner = await viewer();
    const other = await viewer();
    const sid = (await openSession(open, owner)).body.data.session.session_id;
    for (const res of [
      await api.get(`${base(open.id)}/live/heartbeat?session_id=${sid}`, { token: other }),
      await api.patch(`${base(open.id)}/live/watch`, {
        token: other,
        body: { session_id: sid, quality: '360p' },
      }),
      await api.delete(`${base(open.id)}/live/watch?session_id=${sid}`, { token: other }),
      await api.get(`${base(open.id)}/live/qualities?session_id=${sid}`, { token: other }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect(
      (await api.get(`${base(open.id)}/live/heartbeat?session_id=${sid}`, { token: owner })).body.data
        .session_valid,
    ).toBe(true);
  });

  it('requires a bearer token where spec 5 says so and validates bodies', async () => {
    expect(
      (
        await api.post(`${base(open.id)}/live/watch`, {
          body: { channel_id: open.channel, device_type: 'web' },
        })
      ).status,
    ).toBe(401);
    expect((await api.get(`${base(open.id)}/live/heartbeat?session_id=${randomUUID()}`)).status).toBe(401);
    const bad = await openSession(open, await viewer(), { device_type: 'toaster', quality: '4k' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['device_type', 'quality']);
  });
});

describe('channel reads', () => {
  it('viewers, metadata, stream and on-demand have the spec shapes', async () => {
    const viewers = await api.get(`${base(open.id)}/live/viewers`);
    expect(viewers.body.data.viewers).toMatchObject({
      watching_now: expect.any(Number),
      peak_today: expect.any(Number),
      peak_all_time: expect.any(Number),
      by_device: { web: expect.any(Number), ios: 0, android: 0, roku: 0, firetv: 0, appletv: 0 },
    });
    const meta = await api.get(`${base(open.id)}/live/metadata`);
    expect(meta.body.data).toMatchObject({
      is_live: true,
      stream_health: 'good',
      uptime_seconds: expect.any(Number),
      cdn: { provider: expect.any(String) },
      drm: { enabled: false },
    });
    const token = await viewer();
    // A playback token belongs to an open watch session: none yet, so 409.
    const none = await api.get(`${base(open.id)}/live/stream?quality=480p`, { token });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/watch session/);
    const session = (await openSession(open, token)).body.data.session.session_id;
    const stream = await api.get(`${base(open.id)}/live/stream?quality=480p`, { token });
    expect(stream.body.data).toMatchObject({
      quality: '480p',
      is_live: true,
      available_qualities: ['Auto', '1080p', '720p', '480p', '360p'],
    });
    const { token: playback } = stream.body.data;
    const streamUrl = new URL(stream.body.data.stream_url);
    expect(streamUrl.searchParams.get('token')).toBe(playback);
    expect(playbackClaimsOf(playback)['aws:viewer-id']).toMatch(/^acc_[0-9a-f-]{36}$/);
    // Metadata URLs are tokenless references (IVS refuses them on a private channel).
    expect(meta.body.data.stream_urls.hls).toBe(`${streamUrl.origin}${streamUrl.pathname}`);
    // dvr=true: the DVR playlist (the recording IVS is writing, through the media CDN) as stream_url.
    const dvr = await api.get(`${base(open.id)}/live/stream?quality=480p&dvr=true`, { token });
    expect(dvr.body.data.stream_url).toBe(dvr.body.data.dvr_url);
    // Signed for the media CDN (docs/live.md "Recorded media"): the playlist plays, and it hands
    // its renditions the signature (plain hls.js needs nothing more).
    const signedDvr = new URL(dvr.body.data.dvr_url);
    expect(signedDvr.pathname).toMatch(/\/media\/hls\/master\.m3u8$/);
    expect(signedDvr.searchParams.get('Key-Pair-Id')).toBeTruthy();
    const master = await fetch(viaLocalCdn(dvr.body.data.dvr_url));
    expect(master.status).toBe(200);
    const rendition = (await master.text())
      .split('\n')
      .find((line) => !line.startsWith('#') && line.includes('.m3u8'))!;
    const renditionUrl = new URL(rendition, signedDvr);
    expect(renditionUrl.searchParams.get('Key-Pair-Id')).toBe(signedDvr.searchParams.get('Key-Pair-Id'));
    expect((await fetch(viaLocalCdn(`${renditionUrl.origin}${renditionUrl.pathname}`))).status).toBe(403);
    expect((await fetch(viaLocalCdn(renditionUrl.href))).status).toBe(200);
    // Once the session ends, its token is no longer handed out.
    await api.delete(`${base(open.id)}/live/watch?session_id=${session}`, { token });
    expect((await api.get(`${base(open.id)}/live/stream`, { token })).status).toBe(409);
    const od = await api.get(`${base('cr_0002')}/ondemand?type=premium`);
    expect(od.status).toBe(200);
    expect(od.body.meta_data).toMatchObject({ page: 1, limit: 20 });
    for (const item of od.body.data.content)
      expect(item).toMatchObject({ type: 'premium', is_locked: true, stream_url: null });
    const free = await api.get(`${base('cr_0002')}/ondemand?type=free`);
    for (const item of free.body.data.content) {
      expect(item).toMatchObject({
        is_free: true,
        is_locked: false,
        season: expect.any(Number),
        views_formatted: expect.any(String),
      });
      expect(item.stream_url).toMatch(/^https:/);
    }
  });
});
