import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as reconcilePayments } from '../../functions/payments/reconcile-payments.ts';
import { reconcileRow } from '../../functions/payments/workers.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { clock } from '../../shared/clock.ts';
import { db } from '../../shared/db/client.ts';
import { DeleteCommand } from '../../shared/db/document.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  applyEntitlement,
  entitlementKey,
  entitlementObjects,
  getEntitlement,
} from '../../shared/entitlements/entitlement-repository.ts';
import type { Catalog, EpisodeRecord, ShowRecord } from '../../shared/catalog/model.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { deliveredTo, entitlementsOf, pay, stripeStandIn, subscribePaid } from '../support/payments.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Issue 14 item 11, paywall bypass (high): a locked episode never carries a playable URL, on any
 * endpoint. Every response below is searched as a whole for VOD playlist URLs
 * (`…/vod/<episode>/master.m3u8`), wherever they sit, so a new field or endpoint that leaks one
 * is caught too.
 */
let api: TestApi;
let catalog: Catalog;
let byId: Map<string, EpisodeRecord>;
/** Shows with free, premium and pay-per-view episodes (the probe found 8 such shows leaking). */
let shows: ShowRecord[];
beforeAll(async () => {
  api = await testApi();
  catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  byId = new Map(catalog.episodes.map((e) => [e.id, e]));
  shows = catalog.shows
    .filter((s) =>
      (['free', 'premium', 'ppv'] as const).every((a) =>
        catalog.episodes.some((e) => e.show_id === s.id && e.access === a),
      ),
    )
    .slice(0, 8);
  expect(shows).toHaveLength(8);
});

const PLAYLIST = /\/vod\/([^/]+)\/master\.m3u8/;

/** Every VOD playlist URL in a response, with the episode it plays. */
const playlists = (value: unknown, found: EpisodeRecord[] = []): EpisodeRecord[] => {
  if (typeof value === 'string') {
    const id = PLAYLIST.exec(value)?.[1];
    if (id) found.push(byId.get(id) ?? ({ id, access: 'unknown' } as unknown as EpisodeRecord));
  } else if (Array.isArray(value)) for (const v of value) playlists(v, found);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) playlists(v, found);
  return found;
};

/** Items in a response that say `is_locked: true` and have a `stream_url` field (gating_context has none). */
const lockedItems = (value: unknown, found: Array<Record<string, unknown>> = []) => {
  if (Array.isArray(value)) for (const v of value) lockedItems(v, found);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.is_locked === true && 'stream_url' in o) found.push(o);
    for (const v of Object.values(o)) lockedItems(v, found);
  }
  return found;
};

/** The catalogue URLs of every endpoint that lists or plays episodes. */
const episodeEndpoints = () => {
  const creators = [...new Set(shows.map((s) => s.creator_id))];
  return [
    ...shows.flatMap((s) => [`/shows/${s.id}`, `/shows/${s.slug}`, `/tv/v3/shows/${s.id}`]),
    ...[1, 2, 3, 4, 5].map((page) => `/shows/episodes/most-viewed?limit=100&page=${page}`),
    '/shows/episodes/most-viewed?category=gaming&limit=100',
    ...creators.flatMap((c) => [
      `/creators/${c}/channel/ondemand?limit=100`,
      `/creators/${c}/channel/ondemand?type=premium&limit=100`,
      `/creators/${c}/channel/ondemand?type=ppv&limit=100`,
      `/tv/v3/creators/${c}/series?limit=100`,
      `/creators/${c}`,
      `/tv/v3/creators/${c}`,
    ]),
    '/home/hero',
  ];
};

const sweep = async (token?: string) => {
  const leaks: string[] = [];
  let free = 0;
  let locked = 0;
  for (const path of episodeEndpoints()) {
    const res = await api.get(path, { token });
    expect(res.status, path).toBe(200);
    for (const e of playlists(res.body)) {
      if (e.access === 'free') free++;
      else leaks.push(`${path}: ${e.id} (${e.access})`);
    }
    for (const item of lockedItems(res.body)) {
      locked++;
      if (item.stream_url !== null)
        leaks.push(`${path}: locked item with stream_url ${String(item.stream_url)}`);
    }
  }
  return { leaks, free, locked };
};

const account = async () => (await issueAccessToken(`acc_pw_${randomUUID()}`, new Date())).token;

describe('DELETE /creators/{id}/subscription (run as its function, under its grants)', () => {
  it('cancels a Stripe subscription shown behind an App Store one that reaches further (it kept renewing)', async () => {
    const accountId = `acc_pw_${randomUUID()}`;
    const { token } = await issueAccessToken(accountId, new Date());
    const creatorId = shows[0]!.creator_id;
    const target = { kind: 'subscription', creatorId } as const;
    await subscribePaid(api, token, creatorId);
    const web = await getEntitlement(accountId, target);
    expect(web).toMatchObject({ source: 'stripe', status: 'active', cancel_at_period_end: false });
    // The viewer also subscribes in the iOS app, for longer: the App Store's is the one shown.
    const now = clock.now();
    await applyEntitlement(
      {
        ...web!,
        source: 'apple',
        provider: { original_transaction_id: `otx_${randomUUID()}` },
        valid_until: new Date(now.getTime() + 60 * 86_400_000).toISOString(),
        observed_at: now.getTime(),
      },
      now,
    );
    expect((await getEntitlement(accountId, target))?.source).toBe('apple');

    const cancelled = await api.delete(`/creators/${creatorId}/subscription`, { token });
    expect(cancelled.status).toBe(200);
    // No API cancels the App Store one: the answer names the store, so the app sends the user there.
    expect(cancelled.body.data.renews_in_stores).toEqual(['app_store']);
    expect(cancelled.body.data.user_subscription.status).toBe('active');
    // Before, only the subscription shown was looked at: the web one kept renewing.
    const objects = await entitlementObjects(accountId, target);
    expect(objects.find((e) => e.source === 'stripe')).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
    });
    expect(objects.find((e) => e.source === 'apple')).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
    });
    expect((await getEntitlement(accountId, target))?.source).toBe('apple');
  });
});

describe('DELETE /creators/{id}/subscription, a subscription that ended at Stripe unseen', () => {
  it("answers 200 with Stripe's state, not a 500, when the table still holds it as renewing", async () => {
    const accountId = `acc_pw_${randomUUID()}`;
    const { token } = await issueAccessToken(accountId, new Date());
    const creatorId = shows[2]!.creator_id;
    const target = { kind: 'subscription', creatorId } as const;
    await subscribePaid(api, token, creatorId);
    const web = await getEntitlement(accountId, target);
    // Cancelled at Stripe (support, the portal) and its webhooks lost: the table still says renewing.
    const { endpoint, secretKey } = stripeStandIn();
    const ended = await fetch(`${endpoint}/v1/subscriptions/${web!.provider.subscription_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${secretKey}` },
    });
    expect(ended.status).toBe(200);
    // Every event of it delivered to this file's API (`deliveredTo`), so none rewrites the state
    // written below: only this subscription's events (waiting 5 s for the newest 20 events of
    // every file timed out in a clean-clone CI run, stop 58).
    const subscription = web!.provider.subscription_id as string;
    const delivered = async () => {
      const { data } = (await (
        await fetch(`${endpoint}/v1/events?limit=100`, { headers: { authorization: `Bearer ${secretKey}` } })
      ).json()) as { data: Array<{ id: string }> };
      const mine = data.filter((e) => JSON.stringify(e).includes(subscription)).map((e) => e.id);
      return deliveredTo(api.url, mine);
    };
    await waitFor(
      async () => (await getEntitlement(accountId, target))?.status === 'expired' && (await delivered()),
      'the cancellation applied',
      90_000,
    );
    const stale = clock.now();
    await applyEntitlement({ ...web!, observed_at: stale.getTime() }, stale);
    expect(await getEntitlement(accountId, target)).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
    });

    const cancelled = await api.delete(`/creators/${creatorId}/subscription`, { token });
    expect({
      status: cancelled.status,
      user_subscription: cancelled.body.data?.user_subscription?.status,
    }).toEqual({
      status: 200,
      user_subscription: 'expired',
    });
    expect((await getEntitlement(accountId, target))?.status).toBe('expired');
  }, 180_000);
});

describe('the daily payments reconcile (run as its function, under its grants)', () => {
  it('restores a subscription entitlement the table lost from what Stripe reports', async () => {
    const accountId = `acc_pw_${randomUUID()}`;
    const { token } = await issueAccessToken(accountId, new Date());
    const creatorId = shows[0]!.creator_id;
    await subscribePaid(api, token, creatorId);
    const target = { kind: 'subscription', creatorId } as const;
    expect((await getEntitlement(accountId, target))?.status).toBe('active');
    await db.send(new DeleteCommand({ TableName: tableName(), Key: entitlementKey(accountId, target) }));
    const report = await runAsFunction(functionContext(reconcileRow), () => reconcilePayments());
    expect(report.subscriptions).toBeGreaterThanOrEqual(1);
    expect(report.repaired).toBeGreaterThanOrEqual(1);
    expect((await getEntitlement(accountId, target))?.status).toBe('active');
  });

  it("keeps a resubscriber's access: the ended first subscription does not overwrite the paid second one", async () => {
    // Found by the outside probe of money and identity: Stripe lists every subscription, ended ones
    // too, newest first, so the first (cancelled, ended) one came last and wrote `expired` over
    // the live one on every run.
    const accountId = `acc_pw_${randomUUID()}`;
    const { token } = await issueAccessToken(accountId, new Date());
    const creatorId = shows[1]!.creator_id;
    const target = { kind: 'subscription', creatorId } as const;
    const first = await subscribePaid(api, token, creatorId);
    const cancelled = await api.delete(`/creators/${creatorId}/subscription`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      user_subscription: { status: 'cancelled' },
      renews_in_stores: [],
    });
    await pay('renew', first); // the period ends after the cancel: the subscription is deleted
    await waitFor(
      async () => (await getEntitlement(accountId, target))?.status === 'expired',
      'the first subscription ended',
      5000,
    );
    // A new checkout 31 minutes later (within 30 the first, paid session is answered again),
    // paid now (the webhooks' signatures are checked against the real clock).
    const later = new Date(Date.now() + 31 * 60_000);
    const realNow = clock.now;
    clock.now = () => later;
    const checkout = await api
      .post(`/creators/${creatorId}/subscription`, {
        token: (await issueAccessToken(accountId, later)).token,
      })
      .finally(() => {
        clock.now = realNow;
      });
    expect(checkout.status).toBe(201);
    await pay('complete', checkout.body.data.checkout_id);
    await waitFor(
      async () => (await getEntitlement(accountId, target))?.status === 'active',
      'the second subscription',
      5000,
    );
    const second = (await getEntitlement(accountId, target))!.provider.subscription_id;
    // Two daily runs: the first also applies the events of the last days it finds unprocessed
    // (deliveries still in flight), the second finds every event processed.
    for (let run = 0; run < 2; run++)
      await runAsFunction(functionContext(reconcileRow), () => reconcilePayments());
    const after = await getEntitlement(accountId, target);
    expect(after).toMatchObject({ status: 'active', provider: { subscription_id: second } });
    expect((await entitlementsOf(api, token)).find((e) => e.creator_id === creatorId)?.grants_access).toBe(
      true,
    );
    // The ended first subscription is in step with Stripe: another run writes nothing for it. It
    // was compared with the entitlement item (the second's), so every run rewrote the ended one's
    // item: a write per ended subscription per day, for ever.
    const ended = async () =>
      (await entitlementObjects(accountId, target)).find((e) => e.provider.subscription_id !== second);
    const before = await ended();
    expect(before).toMatchObject({ source: 'stripe', status: 'expired' });
    await runAsFunction(functionContext(reconcileRow), () => reconcilePayments());
    expect((await ended())?.observed_at).toBe(before?.observed_at);
  });
});

describe('paywall: no playable URL for a locked episode on any endpoint', () => {
  it('anonymous callers get URLs for free episodes only', async () => {
    const { leaks, free, locked } = await sweep();
    expect(leaks).toEqual([]);
    expect(free).toBeGreaterThan(50); // free episodes still play
    expect(locked).toBeGreaterThan(100);
  });

  it('signed-in callers without a subscription get URLs for free episodes only', async () => {
    const { leaks, free } = await sweep(await account());
    expect(leaks).toEqual([]);
    expect(free).toBeGreaterThan(50);
  });

  it('/shows/{id} and most-viewed lock premium and pay-per-view episodes, free ones keep their URL', async () => {
    for (const show of shows) {
      const { episodes } = (await api.get(`/shows/${show.id}`)).body.data;
      for (const e of episodes) {
        const access = byId.get(e.episode_id)!.access;
        expect(e, `${e.episode_id} (${access})`).toMatchObject(
          access === 'free'
            ? { is_free: true, is_locked: false, stream_url: byId.get(e.episode_id)!.stream_url }
            : { is_free: false, is_locked: true, stream_url: null },
        );
      }
    }
    const { data } = (await api.get('/shows/episodes/most-viewed?limit=100')).body;
    expect(data.some((e: { is_free: boolean }) => !e.is_free)).toBe(true);
    for (const e of data) expect(e.stream_url === null).toBe(!e.is_free);
  });

  it('a creator plays every episode of their own, premium and pay-per-view too, and no other creator’s paid ones', async () => {
    // An account's creator id is its account id; a creator cannot buy their own (checkout: 422).
    const episodes = [...byId.values()];
    const creatorId = episodes.find(
      (e) =>
        e.access === 'ppv' && episodes.some((p) => p.creator_id === e.creator_id && p.access === 'premium'),
    )!.creator_id;
    const { token } = await issueAccessToken(creatorId, new Date());
    const own = shows.filter((s) => s.creator_id === creatorId);
    for (const show of own) {
      const body = (await api.get(`/tv/v3/shows/${show.id}`, { token })).body;
      expect(lockedItems(body), show.id).toEqual([]);
    }
    const played = playlists(
      (await api.get(`/creators/${creatorId}/channel/ondemand?limit=100`, { token })).body,
    );
    expect(new Set(played.map((e) => e.access))).toEqual(new Set(['free', 'premium', 'ppv']));
    const other = shows.find((s) => s.creator_id !== creatorId)!;
    const elsewhere = playlists((await api.get(`/tv/v3/shows/${other.id}`, { token })).body);
    expect(elsewhere.filter((e) => e.access !== 'free')).toEqual([]);
    // Signed out, the same show locks its paid episodes again.
    expect(lockedItems((await api.get(`/tv/v3/shows/${own[0]!.id}`)).body).length).toBeGreaterThan(0);
  });

  it('a subscriber plays the creator’s premium episodes where the caller is known, never pay-per-view', async () => {
    const token = await account();
    const show = shows[0]!;
    await subscribePaid(api, token, show.creator_id);
    for (const path of [
      `/tv/v3/shows/${show.id}`,
      `/creators/${show.creator_id}/channel/ondemand?limit=100`,
    ]) {
      const played = playlists((await api.get(path, { token })).body);
      expect(
        played.some((e) => e.access === 'premium'),
        path,
      ).toBe(true);
      expect(
        played.filter((e) => e.access === 'ppv' || e.creator_id !== show.creator_id),
        path,
      ).toEqual([]);
    }
    // Another creator's premium episodes stay locked for this subscriber.
    const other = shows.find((s) => s.creator_id !== show.creator_id)!;
    const elsewhere = playlists((await api.get(`/tv/v3/shows/${other.id}`, { token })).body);
    expect(elsewhere.filter((e) => e.access !== 'free')).toEqual([]);
  });

  it('a pay-per-view purchase: two parallel checkouts are one payment; paid, the item plays for its buyer only; refunded, it locks again', async () => {
    const token = await account();
    const show = shows[1]!;
    const ppv = catalog.episodes.find((e) => e.show_id === show.id && e.access === 'ppv')!;
    const plays = async (who: string | undefined) =>
      playlists(
        (await api.get(`/creators/${show.creator_id}/channel/ondemand?type=ppv&limit=100`, { token: who }))
          .body,
      ).some((e) => e.id === ppv.id);
    expect(await plays(token)).toBe(false);
    const free = catalog.episodes.find((e) => e.show_id === show.id && e.access === 'free')!;
    expect((await api.post('/checkout', { token, body: { content_id: free.id } })).status).toBe(422);
    expect((await api.post('/checkout', { token, body: { content_id: 'ep_nope' } })).status).toBe(404);
    const [a, b] = await Promise.all([
      api.post('/checkout', { token, body: { content_id: ppv.id } }),
      api.post('/checkout', { token, body: { content_id: ppv.id } }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.checkout_id).toBe(b.body.data.checkout_id);
    expect(a.body.data).toMatchObject({ amount: ppv.price, currency: ppv.currency });
    await pay('complete', a.body.data.checkout_id);
    await waitFor(async () => plays(token), 'the purchase to unlock the item', 5000);
    const held = await entitlementsOf(api, token);
    expect(held.filter((e) => e.kind === 'purchase')).toEqual([
      expect.objectContaining({ content_id: ppv.id, status: 'active', grants_access: true }),
    ]);
    expect((await api.post('/checkout', { token, body: { content_id: ppv.id } })).status).toBe(409);
    expect(await plays(await account())).toBe(false);
    await pay('refund', a.body.data.checkout_id);
    await waitFor(async () => !(await plays(token)), 'the refund to lock the item again', 5000);
    expect((await entitlementsOf(api, token))[0]).toMatchObject({ status: 'refunded', grants_access: false });
    // Refunded, it can be bought again at once: a new session, not the paid one (which the card
    // network refuses to pay twice), though still within the paid one's 30-minute window.
    const again = await api.post('/checkout', { token, body: { content_id: ppv.id } });
    expect(again.status).toBe(201);
    expect(again.body.data.checkout_id).not.toBe(a.body.data.checkout_id);
    await pay('complete', again.body.data.checkout_id);
    await waitFor(async () => plays(token), 'the second purchase to unlock the item', 5000);
  });
});
