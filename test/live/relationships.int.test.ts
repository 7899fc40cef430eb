import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { followedAt } from '../../shared/creators/relationship-repository.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { subscribePaid } from '../support/payments.ts';
import { studioCreator } from '../support/studio.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Following, subscribing and the channel reads the watch tests do not reach (anonymous and
 * signed-in live status, offline metadata and viewers, pay-per-view items, unknown creators):
 * every answer also goes through the document check of the test client.
 */
let api: TestApi;
let offline: string;
let ppvCreator: string;

beforeAll(async () => {
  api = await testApi();
  const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  offline = catalog.creators.find((c) => !c.live)!.id;
  ppvCreator = catalog.episodes.find((e) => e.access === 'ppv')!.creator_id;
});

const viewer = async () => (await issueAccessToken(`acc_test_${randomUUID()}`, new Date())).token;
const live = 'cr_0001';

describe('follow and subscription', () => {
  it('follows and unfollows idempotently, and the live status shows it', async () => {
    const token = await viewer();
    for (let i = 0; i < 2; i++) {
      const followed = await api.post(`/creators/${live}/follow`, { token });
      expect(followed.status).toBe(200);
      expect(followed.body.data).toEqual({ creator_id: live, is_following: true });
    }
    const status = await api.get(`/creators/${live}/channel/live`, { token });
    expect(status.body.data).toMatchObject({
      is_live: true,
      creator_name: expect.any(String),
      user_state: { is_following: true, is_subscribed: false },
    });
    expect(status.body.data.channel.watching_now).toEqual(expect.any(Number));
    for (let i = 0; i < 2; i++) {
      const unfollowed = await api.delete(`/creators/${live}/follow`, { token });
      expect(unfollowed.status).toBe(200);
      expect(unfollowed.body.data).toEqual({ creator_id: live, is_following: false });
    }
  });

  it('cancelling keeps access until the renewal date; without a subscription the state is empty', async () => {
    const token = await viewer();
    const none = await api.delete(`/creators/${live}/subscription`, { token });
    expect(none.status).toBe(200);
    expect(none.body.data.user_subscription).toEqual({
      is_subscribed: false,
      subscribed_at: null,
      renewal_date: null,
      status: null,
    });
    await subscribePaid(api, token, live);
    const detail = await api.get(`/creators/${live}`, { token });
    const banner = detail.body.data.find((b: { type: string }) => b.type === 'subscribe_banner');
    expect(banner.user_subscription).toMatchObject({ is_subscribed: true, status: 'active' });
    // Subscribing again while it holds is a 409 (no second payment).
    expect((await api.post(`/creators/${live}/subscription`, { token })).status).toBe(409);
    const cancelled = await api.delete(`/creators/${live}/subscription`, { token });
    expect(cancelled.body.data.user_subscription).toEqual({
      ...banner.user_subscription,
      status: 'cancelled',
    });
    expect(cancelled.body.data.user_subscription.is_subscribed).toBe(true);
  });

  it("refuses a creator's own account following itself (409), by id or handle; unfollowing stays idempotent", async () => {
    // Self is the creator's owner account: a creator who signed up has the account's id.
    const me = await studioCreator(api, 'music');
    for (const id of [me.creatorId, me.handle]) {
      const refused = await api.post(`/creators/${id}/follow`, { token: me.token });
      expect(refused.status, id).toBe(409);
      expect(refused.body.message).toBe('You cannot follow yourself');
    }
    // Nothing written: no follow item, so the follower counter has nothing to count.
    expect(await followedAt(me.creatorId, me.creatorId)).toBeNull();
    const unfollowed = await api.delete(`/creators/${me.creatorId}/follow`, { token: me.token });
    expect(unfollowed.status).toBe(200);
    expect(unfollowed.body.data).toEqual({ creator_id: me.creatorId, is_following: false });
    // The creator still follows others.
    expect((await api.post(`/creators/${live}/follow`, { token: me.token })).status).toBe(200);
  });

  it('answers 404 for an unknown creator on every relationship route', async () => {
    const token = await viewer();
    for (const res of [
      await api.post('/creators/cr_9999/follow', { token }),
      await api.delete('/creators/cr_9999/follow', { token }),
      await api.post('/creators/cr_9999/subscription', { token }),
      await api.delete('/creators/cr_9999/subscription', { token }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Creator not found');
    }
  });
});

describe('channel reads', () => {
  it('anonymous live status has no user state to speak of; offline channels read as offline', async () => {
    const anonymous = await api.get(`/creators/${live}/channel/live`);
    expect(anonymous.body.data.user_state).toEqual({ is_following: false, is_subscribed: false });
    const meta = await api.get(`/creators/${offline}/channel/live/metadata`);
    expect(meta.body.data).toMatchObject({
      stream_id: null,
      is_live: false,
      stream_health: 'offline',
      started_at: null,
    });
    const gatedMeta = await api.get(`/creators/${live}/channel/live/metadata`);
    expect(gatedMeta.body.data.drm).toMatchObject({ enabled: true, type: 'widevine' });
    const viewers = await api.get(`/creators/${offline}/channel/live/viewers`);
    expect(viewers.body.data).toMatchObject({ creator_id: offline, is_live: false });
    expect(
      (await api.get(`/creators/${offline}/channel/live/stream`, { token: await viewer() })).status,
    ).toBe(404);
  });

  it('pay-per-view items carry a price and stay locked', async () => {
    const res = await api.get(`/creators/${ppvCreator}/channel/ondemand?type=ppv&limit=5`);
    expect(res.status).toBe(200);
    expect(res.body.data.content.length).toBeGreaterThan(0);
    for (const item of res.body.data.content)
      expect(item).toMatchObject({
        type: 'ppv',
        is_locked: true,
        stream_url: null,
        price: expect.any(Number),
        currency: expect.any(String),
      });
  });

  it('answers 404 for an unknown creator or session', async () => {
    const token = await viewer();
    for (const path of ['live', 'live/viewers', 'live/metadata', 'ondemand'])
      expect((await api.get(`/creators/cr_9999/channel/${path}`)).status).toBe(404);
    const qualities = await api.get(`/creators/${live}/channel/live/qualities?session_id=${randomUUID()}`, {
      token,
    });
    expect(qualities.status).toBe(404);
    expect(qualities.body.message).toBe('Watch session not found');
  });
});
