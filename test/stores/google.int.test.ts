import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type PlayStandIn, startPlayStandIn, usePlayStandIn } from '../../scripts/local/play/server.ts';
import { payStore } from '../../scripts/local/stores-pay.ts';
import { ensureAppAccountToken, getAccount } from '../../shared/identity/account-repository.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { STORE_DEFAULTS } from '../../shared/stores/access.ts';
import { productIdOf } from '../../shared/stores/catalogue.ts';
import { syncPlayPurchase } from '../../shared/stores/google-sync.ts';
import { dynamoWrites, type TestApi, testApi } from '../support/api.ts';
import { entitlementsOf, newViewer } from '../support/payments.ts';

/**
 * Issue 37, Google Play: Real-time developer notifications pushed by Pub/Sub to
 * `POST /billing/google/notifications`, believed only with Google's OIDC token (here the Play
 * stand-in's key, whose JWKS the verifier is pointed at: PLAY_PUSH_JWKS_URL), deduplicated by
 * messageId; the purchase read from the Play Developer API stand-in and acknowledged once stored.
 */
let api: TestApi;
let play: PlayStandIn;
let creatorId: string;
let ppvId: string;

beforeAll(async () => {
  play = await startPlayStandIn({
    packageName: STORE_DEFAULTS.playPackageName,
    productPrefix: STORE_DEFAULTS.productPrefix,
    pushAudience: STORE_DEFAULTS.playPushAudience,
    pushServiceAccount: STORE_DEFAULTS.playPushServiceAccount,
    appTokenOf: async (accountId) => {
      const account = await getAccount(accountId);
      return account ? (await ensureAppAccountToken(account)).app_account_token : undefined;
    },
    graceMs: 2000,
  });
  usePlayStandIn(play);
  api = await testApi();
  play.connect(`${api.url}/billing/google/notifications`);
  process.env.PLAY_PORT = new URL(play.endpoint).port;
  const catalog = generateCatalog({ seed: 42, now: api.seededAt });
  creatorId = catalog.episodes.find((e) => e.access === 'premium')!.creator_id;
  ppvId = catalog.episodes.find((e) => e.access === 'ppv')!.id;
}, 120_000);
afterAll(async () => {
  await play?.stop();
});

const viewer = () => newViewer('play');
const held = async (token: string) => (await entitlementsOf(api, token))[0];
const push = (authorization: string | undefined, data: object, messageId = String(Math.random()).slice(2)) =>
  api.post('/billing/google/notifications', {
    headers: authorization ? { authorization } : {},
    body: {
      message: { data: Buffer.from(JSON.stringify(data)).toString('base64'), messageId },
      subscription: 'x',
    },
  });

describe('POST /billing/google/notifications', () => {
  it('each state moves the entitlement (PURCHASED, CANCELED, RENEWED, IN_GRACE_PERIOD ending by itself, ON_HOLD, RECOVERED, EXPIRED, REVOKED), acknowledged once stored', async () => {
    const v = await viewer();
    const run = async (type: string) => {
      const out = await play.notify({ type, account_id: v.accountId, target: creatorId });
      expect(out.delivery, JSON.stringify(out.delivery.body)).toMatchObject({ status: 200 });
      expect((out.delivery.body as { data: { outcome: string } }).data.outcome).toBe('processed');
      return out;
    };
    const bought = await run('PURCHASED');
    expect(await held(v.token)).toMatchObject({ source: 'google', status: 'active', grants_access: true });
    expect(play.purchase(bought.notification.purchase_token)?.acknowledged).toBe(true);
    await run('CANCELED');
    expect(await held(v.token)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      grants_access: true,
    });
    await run('RENEWED');
    expect(await held(v.token)).toMatchObject({ status: 'active', cancel_at_period_end: false });
    await run('IN_GRACE_PERIOD');
    expect(await held(v.token)).toMatchObject({ status: 'past_due', grants_access: true });
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(await held(v.token)).toMatchObject({ status: 'past_due', grants_access: false });
    await run('ON_HOLD');
    expect(await held(v.token)).toMatchObject({ status: 'past_due', grants_access: false });
    await run('RECOVERED');
    expect(await held(v.token)).toMatchObject({ status: 'active', grants_access: true });
    await run('EXPIRED');
    expect(await held(v.token)).toMatchObject({ status: 'expired', grants_access: false });
    await run('PURCHASED');
    await run('REVOKED');
    expect(await held(v.token)).toMatchObject({ status: 'revoked', grants_access: false });
  });

  it("a voided earlier order (last period's renewal refunded) leaves the current period Google still bills", async () => {
    const v = await viewer();
    const bought = await play.notify({ type: 'PURCHASED', account_id: v.accountId, target: creatorId });
    await play.notify({ type: 'RENEWED', account_id: v.accountId, target: creatorId });
    const token = bought.notification.purchase_token;
    // The first order (GPA.0000-0) refunded; the subscription goes on (latestOrderId GPA.0000-1, ACTIVE).
    const res = await push(`Bearer ${play.pushToken()}`, {
      packageName: STORE_DEFAULTS.playPackageName,
      voidedPurchaseNotification: {
        purchaseToken: token,
        orderId: 'GPA.0000-0',
        productType: 1,
        refundType: 1,
      },
    });
    expect(res.status).toBe(200);
    expect(await held(v.token)).toMatchObject({ status: 'active', grants_access: true });
    // The latest order voided: refunded, no access.
    await play.notify({ type: 'VOIDED', account_id: v.accountId, target: creatorId });
    expect(await held(v.token)).toMatchObject({ status: 'refunded', grants_access: false });
  });

  it('a one-time product (pay-per-view) is bought, acknowledged, then voided (refunded)', async () => {
    const v = await viewer();
    const bought = await play.notify({ type: 'PURCHASED', account_id: v.accountId, target: `ppv:${ppvId}` });
    expect(await held(v.token)).toMatchObject({ kind: 'purchase', content_id: ppvId, grants_access: true });
    expect(play.purchase(bought.notification.purchase_token)?.acknowledged).toBe(true);
    await play.notify({ type: 'VOIDED', account_id: v.accountId, target: `ppv:${ppvId}` });
    expect(await held(v.token)).toMatchObject({ status: 'refunded', grants_access: false });
  });

  it('a re-read begun before a change cannot overwrite it, however late it answers (was stamped at its answer)', async () => {
    // A read of the subscription begins (Google answers "renews"; the answer is held), the
    // viewer cancels and the CANCELED notification's own re-read is applied, then the first read
    // answers. Until 2026-12-01 it was stamped after Google's answer, so later than the cancel's
    // re-read: it wrote "renews" over the cancel (the rule of SyncContext.now, stripe-sync.ts).
    const v = await viewer();
    const bought = await play.notify({ type: 'PURCHASED', account_id: v.accountId, target: creatorId });
    const token = bought.notification.purchase_token;
    expect(await held(v.token)).toMatchObject({ status: 'active', cancel_at_period_end: false });
    let read!: () => void;
    const answered = new Promise<void>((resolve) => {
      read = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const realFetch = globalThis.fetch;
    let held1 = false;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const res = await realFetch(input, init);
      if (!held1 && String(input).includes(`/subscriptionsv2/tokens/${encodeURIComponent(token)}`)) {
        held1 = true;
        read();
        await gate;
      }
      return res;
    });
    try {
      const late = syncPlayPurchase(token, { subscription: true }, {}, v.accountId);
      await answered;
      const cancel = await play.notify({ type: 'CANCELED', account_id: v.accountId, target: creatorId });
      expect(cancel.delivery).toMatchObject({ status: 200 });
      expect(await held(v.token)).toMatchObject({ cancel_at_period_end: true });
      release();
      expect((await late)?.record).toMatchObject({ cancel_at_period_end: false }); // what it read
    } finally {
      spy.mockRestore();
    }
    expect(await held(v.token)).toMatchObject({ status: 'active', cancel_at_period_end: true });
  });

  it('a push without a valid OIDC token (none, another audience, another service account, another key) is 401 and writes nothing', async () => {
    const v = await viewer();
    const bought = await play.notify({ type: 'PURCHASED', account_id: v.accountId, target: creatorId });
    const data = {
      packageName: STORE_DEFAULTS.playPackageName,
      subscriptionNotification: { notificationType: 13, purchaseToken: bought.notification.purchase_token },
    };
    const forged = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    for (const authorization of [
      undefined,
      'Bearer not-a-jwt',
      `Bearer ${play.pushToken({ aud: 'someone-else' })}`,
      `Bearer ${play.pushToken({ email: 'attacker@example.iam.gserviceaccount.com' })}`,
      `Bearer ${play.pushToken({ email_verified: false })}`,
      `Bearer ${play.pushToken({ exp: Math.floor(Date.now() / 1000) - 10 })}`,
      `Bearer ${play.pushToken({}, forged)}`,
    ]) {
      const writes = dynamoWrites.length;
      const res = await push(authorization, data);
      expect(res.status).toBe(401);
      expect(dynamoWrites.slice(writes)).toEqual([]);
    }
    expect(await held(v.token)).toMatchObject({ status: 'active' });
  });

  it('a replayed messageId changes nothing; an unknown account or token, or another package, changes nothing', async () => {
    const v = await viewer();
    const bought = await play.notify({ type: 'PURCHASED', account_id: v.accountId, target: creatorId });
    const token = bought.notification.purchase_token;
    const auth = `Bearer ${play.pushToken()}`;
    const expire = {
      packageName: STORE_DEFAULTS.playPackageName,
      subscriptionNotification: { notificationType: 13, purchaseToken: token },
    };
    // Replaying the PURCHASED message id, after the purchase expired at Google: duplicate, still active.
    await play.notify({ type: 'EXPIRED', account_id: v.accountId, target: creatorId }).catch(() => undefined);
    const replay = await push(auth, expire, bought.notification.message_id);
    expect(replay.body.data).toMatchObject({ outcome: 'duplicate' });
    for (const data of [
      { ...expire, subscriptionNotification: { notificationType: 4, purchaseToken: 'sub.unknown-token' } },
      { ...expire, packageName: 'com.other.app' },
    ]) {
      const writes = dynamoWrites.length;
      const res = await push(auth, data);
      expect(res.status).toBe(200);
      expect(res.body.data.outcome).toBe('ignored');
      expect(dynamoWrites.slice(writes).filter((w) => !w.includes('STORE_NOTIFICATION'))).toEqual([]);
    }
    const bad = await api.post('/billing/google/notifications', {
      headers: { authorization: auth },
      body: { message: {} },
    });
    expect([400, 422]).toContain(bad.status);
  });
});

describe('POST /billing/google/purchases', () => {
  it("links the caller's purchase and answers the entitlement; another account's is 403; unknown 422", async () => {
    const [v, other] = await Promise.all([viewer(), viewer()]);
    play.connect(`${api.url}/nowhere`); // the push goes nowhere: the app's link alone unlocks
    try {
      const mine = await play.notify({ type: 'PURCHASED', account_id: v.accountId, target: `ppv:${ppvId}` });
      const productId = productIdOf(STORE_DEFAULTS.productPrefix, { kind: 'purchase', contentId: ppvId });
      const linked = await api.post('/billing/google/purchases', {
        token: v.token,
        body: { purchase_token: mine.notification.purchase_token, product_id: productId },
      });
      expect(linked.status).toBe(200);
      expect(linked.body.data).toMatchObject({
        kind: 'purchase',
        content_id: ppvId,
        source: 'google',
        grants_access: true,
      });
      const theirs = await api.post('/billing/google/purchases', {
        token: other.token,
        body: { purchase_token: mine.notification.purchase_token, product_id: productId },
      });
      expect(theirs.status).toBe(403);
      const unknown = await api.post('/billing/google/purchases', {
        token: v.token,
        body: { purchase_token: 'ppv.nope', product_id: productId },
      });
      expect(unknown.status).toBe(422);
      const notOurs = await api.post('/billing/google/purchases', {
        token: v.token,
        body: { purchase_token: 'x', product_id: 'com.other.coins' },
      });
      expect(notOurs.status).toBe(422);
    } finally {
      play.connect(`${api.url}/billing/google/notifications`);
    }
  });
});

describe('npm run pay -- google', () => {
  it('PURCHASED unlocks, REVOKED locks; an unknown account exits 1, bad usage 2', async () => {
    const v = await viewer();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await payStore(['google', 'PURCHASED', v.accountId, creatorId])).toBe(0);
    expect(await held(v.token)).toMatchObject({ source: 'google', grants_access: true });
    expect(await payStore(['google', 'REVOKED', v.accountId, creatorId])).toBe(0);
    expect(await held(v.token)).toMatchObject({ status: 'revoked', grants_access: false });
    expect(await payStore(['google', 'PURCHASED', 'acc_nobody', creatorId])).toBe(1);
    expect(await payStore(['google', 'NOPE', v.accountId, creatorId])).toBe(2);
    log.mockRestore();
    error.mockRestore();
  });
});
