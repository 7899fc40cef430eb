import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AppIdentity,
  signedNotification,
  signedRenewal,
  signedTransaction,
  type TransactionFields,
  transactionId,
} from '../../scripts/local/appstore/notifications.ts';
import { makeTestChain, type TestChain } from '../../scripts/local/appstore/signing.ts';
import { getEntitlement } from '../../shared/entitlements/entitlement-repository.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { STORE_DEFAULTS } from '../../shared/stores/access.ts';
import { productIdOf } from '../../shared/stores/catalogue.ts';
import { dynamoWrites, type TestApi, testApi } from '../support/api.ts';
import { entitlementsOf, newViewer } from '../support/payments.ts';

/**
 * Issue 37, Apple: App Store Server Notifications V2 and the app's signed transactions, verified
 * with Apple's SignedDataVerifier against a root this file makes (scripts/local/appstore/signing.ts:
 * root, intermediate with 1.2.840.113635.100.6.2.1, leaf with 1.2.840.113635.100.6.11.1) and puts
 * in the App Store secret before the first call; online checks are off (the local deployment's
 * APPLE_ONLINE_CHECKS). What must hold: anything not signed for this app changes nothing, each
 * notification id counts once, and each type moves the entitlement as docs/payments.md says.
 */
const APP: AppIdentity = { bundleId: STORE_DEFAULTS.appleBundleId, environment: 'Sandbox' };
const PREFIX = STORE_DEFAULTS.productPrefix;
const DAY = 86_400_000;
let api: TestApi;
let chain: TestChain;
let creatorId: string;
let ppvId: string;

beforeAll(async () => {
  chain = await makeTestChain({ name: 'Apple test' });
  // The verifier's roots come from the App Store secret (served to the function by the local
  // Secrets Manager stand-in from this variable); set before any function reads it.
  process.env.LOCAL_APP_STORE_SECRET = JSON.stringify({ root_certificates: [chain.root.toString('base64')] });
  api = await testApi();
  const catalog = generateCatalog({ seed: 42, now: api.seededAt });
  const premium = catalog.episodes.find((e) => e.access === 'premium');
  const ppv = catalog.episodes.find((e) => e.access === 'ppv');
  if (!premium || !ppv) throw new Error('the demo catalogue has no premium or pay-per-view episode');
  creatorId = premium.creator_id;
  ppvId = ppv.id;
}, 120_000);

/** A fresh account with its app token (as `GET /me` answers it to the app). */
const viewer = async () => {
  const { account, token } = await newViewer('apple');
  const me = await api.get('/me', { token });
  expect(me.body.data.app_account_token).toBe(account.app_account_token);
  return { accountId: account.account_id, appToken: account.app_account_token!, token };
};

const notify = (signedPayload: string) =>
  api.post('/billing/apple/notifications', { body: { signedPayload } });

/** One subscription's signed state as Apple would send it at `signedDate`. */
const subscriptionState = (
  owner: { appToken: string },
  original: string,
  fields: Partial<TransactionFields> & { signedDate: number },
  renewal: Parameters<typeof signedRenewal>[2] extends infer R ? Partial<R> : never = {},
  signer: TestChain = chain,
  app: AppIdentity = APP,
) => {
  const productId = productIdOf(PREFIX, { kind: 'subscription', creatorId });
  return {
    signedTransactionInfo: signedTransaction(signer, app, {
      productId,
      appAccountToken: owner.appToken,
      originalTransactionId: original,
      purchaseDate: fields.signedDate - DAY,
      originalPurchaseDate: fields.signedDate - DAY,
      expiresDate: fields.signedDate + 30 * DAY,
      ...fields,
    }),
    signedRenewalInfo: signedRenewal(signer, app, {
      productId,
      originalTransactionId: original,
      signedDate: fields.signedDate,
      ...renewal,
    }),
  };
};

const subscription = async (accountId: string) =>
  getEntitlement(accountId, { kind: 'subscription', creatorId });

describe('POST /billing/apple/notifications: only what Apple signed for this app, once', () => {
  it('a SUBSCRIBED notification unlocks the subscription for the account named by appAccountToken', async () => {
    const v = await viewer();
    const at = Date.now();
    const res = await notify(
      signedNotification(chain, APP, {
        notificationType: 'SUBSCRIBED',
        subtype: 'INITIAL_BUY',
        signedDate: at,
        ...subscriptionState(v, transactionId(), { signedDate: at, price: 4990, currency: 'USD' }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: true, type: 'SUBSCRIBED', outcome: 'processed' });
    const held = await entitlementsOf(api, v.token);
    expect(held).toEqual([
      expect.objectContaining({
        kind: 'subscription',
        creator_id: creatorId,
        source: 'apple',
        status: 'active',
        grants_access: true,
        valid_until: new Date(at + 30 * DAY).toISOString(),
      }),
    ]);
    // The price as the App Store reported it: 4990 milliunits of USD are 499 cents.
    expect((await subscription(v.accountId))?.price).toMatchObject({
      amount: 499,
      currency: 'usd',
      interval: 'month',
    });
  });

  it('a broken chain, a wrong bundle id or environment, a missing Apple OID: 400, nothing written', async () => {
    const v = await viewer();
    const at = Date.now();
    const foreign = await makeTestChain({ foreignRoot: true, name: 'Foreign' });
    const noLeafOid = await makeTestChain({ withoutOid: 'leaf', name: 'No leaf OID' });
    const noIntermediateOid = await makeTestChain({ withoutOid: 'intermediate', name: 'No WWDR OID' });
    const otherApp: AppIdentity = { bundleId: 'com.other.app', environment: 'Sandbox' };
    const production: AppIdentity = { ...APP, environment: 'Production', appAppleId: 1234567890 };
    const payloads = [
      ...[foreign, noLeafOid, noIntermediateOid].map((signer) =>
        signedNotification(signer, APP, {
          notificationType: 'SUBSCRIBED',
          signedDate: at,
          ...subscriptionState(v, transactionId(), { signedDate: at }, {}, signer),
        }),
      ),
      ...[otherApp, production].map((app) =>
        signedNotification(chain, app, {
          notificationType: 'SUBSCRIBED',
          signedDate: at,
          ...subscriptionState(v, transactionId(), { signedDate: at }, {}, chain, app),
        }),
      ),
      // Right envelope, but the transaction inside is another app's.
      signedNotification(chain, APP, {
        notificationType: 'SUBSCRIBED',
        signedDate: at,
        signedTransactionInfo: subscriptionState(v, transactionId(), { signedDate: at }, {}, chain, otherApp)
          .signedTransactionInfo,
      }),
      // A good notification with its signature's last bytes changed.
      `${signedNotification(chain, APP, { notificationType: 'SUBSCRIBED', signedDate: at, ...subscriptionState(v, transactionId(), { signedDate: at }) }).slice(0, -6)}AAAAAA`,
    ];
    for (const payload of payloads) {
      const writes = dynamoWrites.length;
      const res = await notify(payload);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Invalid (signedPayload|signedTransactionInfo)/);
      expect(dynamoWrites.slice(writes)).toEqual([]);
    }
    expect(await subscription(v.accountId)).toBeUndefined();
  });

  it('a replayed notificationUUID changes nothing (duplicate), even carrying another state', async () => {
    const v = await viewer();
    const original = transactionId();
    const uuid = randomUUID();
    const at = Date.now();
    const first = await notify(
      signedNotification(chain, APP, {
        notificationType: 'SUBSCRIBED',
        notificationUUID: uuid,
        signedDate: at,
        ...subscriptionState(v, original, { signedDate: at }),
      }),
    );
    expect(first.body.data.outcome).toBe('processed');
    const before = await subscription(v.accountId);
    const replay = await notify(
      signedNotification(chain, APP, {
        notificationType: 'EXPIRED',
        notificationUUID: uuid,
        signedDate: at + 1000,
        ...subscriptionState(v, original, { signedDate: at + 1000, expiresDate: at }),
      }),
    );
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ notification_id: uuid, outcome: 'duplicate' });
    expect(await subscription(v.accountId)).toEqual(before);
  });

  it('an unknown appAccountToken (or none) changes nothing: 200 ignored, no entitlement written', async () => {
    const stranger = { appToken: randomUUID() };
    for (const owner of [stranger, { appToken: '' }]) {
      const at = Date.now();
      const writes = dynamoWrites.length;
      const res = await notify(
        signedNotification(chain, APP, {
          notificationType: 'SUBSCRIBED',
          signedDate: at,
          ...subscriptionState(owner, transactionId(), { signedDate: at }),
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body.data.outcome).toBe('ignored');
      expect(dynamoWrites.slice(writes)).toEqual([]);
    }
  });

  it('answers 400 (never 500) for a body that is not a notification', async () => {
    for (const body of [
      {},
      { signedPayload: 42 },
      { signedPayload: 'not-a-jws' },
      { signedPayload: 'a.b.c' },
    ]) {
      const res = await api.post('/billing/apple/notifications', { body });
      expect([400, 422]).toContain(res.status);
    }
  });
});

describe('each notification type moves the entitlement as documented (docs/payments.md)', () => {
  it('walks a subscription through renewals, auto-renew off, failures, grace, recovery, expiry, refund and revoke', async () => {
    const v = await viewer();
    const original = transactionId();
    let at = Date.now() - 60_000;
    const step = async (
      notificationType: string,
      subtype: string | undefined,
      fields: Partial<TransactionFields>,
      renewal: Record<string, unknown> = {},
    ) => {
      at += 1000;
      const res = await notify(
        signedNotification(chain, APP, {
          notificationType,
          subtype,
          signedDate: at,
          ...subscriptionState(v, original, { signedDate: at, ...fields }, renewal),
        }),
      );
      expect(res.body.data.outcome).toBe('processed');
      const e = await subscription(v.accountId);
      const [view] = await entitlementsOf(api, v.token);
      return { ...e!, grants_access: view!.grants_access };
    };
    const future = Date.now() + 30 * DAY;
    const past = Date.now() - DAY;
    expect(await step('SUBSCRIBED', 'INITIAL_BUY', { expiresDate: future })).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
      grants_access: true,
    });
    expect(
      await step(
        'DID_CHANGE_RENEWAL_STATUS',
        'AUTO_RENEW_DISABLED',
        { expiresDate: future },
        { autoRenewStatus: 0 },
      ),
    ).toMatchObject({ status: 'active', cancel_at_period_end: true, grants_access: true });
    expect(
      await step(
        'DID_CHANGE_RENEWAL_STATUS',
        'AUTO_RENEW_ENABLED',
        { expiresDate: future },
        { autoRenewStatus: 1 },
      ),
    ).toMatchObject({ status: 'active', cancel_at_period_end: false });
    const renewed = await step('DID_RENEW', undefined, {
      expiresDate: future + 30 * DAY,
      transactionId: transactionId(),
    });
    expect(renewed).toMatchObject({
      status: 'active',
      valid_until: new Date(future + 30 * DAY).toISOString(),
    });
    expect(
      await step(
        'DID_FAIL_TO_RENEW',
        'GRACE_PERIOD',
        { expiresDate: past },
        { isInBillingRetryPeriod: true, gracePeriodExpiresDate: Date.now() + 6 * DAY },
      ),
    ).toMatchObject({ status: 'past_due', grants_access: true, valid_until: new Date(past).toISOString() });
    expect(
      await step('GRACE_PERIOD_EXPIRED', undefined, { expiresDate: past }, { isInBillingRetryPeriod: true }),
    ).toMatchObject({
      status: 'past_due',
      grace_until: null,
      grants_access: false,
    });
    expect(
      await step('DID_RENEW', 'BILLING_RECOVERY', { expiresDate: future, transactionId: transactionId() }),
    ).toMatchObject({
      status: 'active',
      grants_access: true,
    });
    expect(
      await step('DID_FAIL_TO_RENEW', undefined, { expiresDate: past }, { isInBillingRetryPeriod: true }),
    ).toMatchObject({ status: 'past_due', grace_until: null, grants_access: false });
    expect(
      await step('EXPIRED', 'BILLING_RETRY', { expiresDate: past }, { autoRenewStatus: 0 }),
    ).toMatchObject({
      status: 'expired',
      grants_access: false,
    });
    expect(
      await step('SUBSCRIBED', 'RESUBSCRIBE', { expiresDate: future, transactionId: transactionId() }),
    ).toMatchObject({
      status: 'active',
      grants_access: true,
    });
    expect(await step('REFUND', undefined, { expiresDate: future, revocationDate: at })).toMatchObject({
      status: 'refunded',
      grants_access: false,
    });
    expect(
      await step('SUBSCRIBED', 'RESUBSCRIBE', { expiresDate: future, transactionId: transactionId() }),
    ).toMatchObject({
      status: 'active',
    });
    expect(await step('REVOKE', undefined, { expiresDate: future, revocationDate: at })).toMatchObject({
      status: 'revoked',
      grants_access: false,
    });
  });

  it('an older signed state arriving after a newer one changes nothing', async () => {
    const v = await viewer();
    const original = transactionId();
    const at = Date.now();
    await notify(
      signedNotification(chain, APP, {
        notificationType: 'SUBSCRIBED',
        signedDate: at,
        ...subscriptionState(v, original, { signedDate: at }),
      }),
    );
    const late = await notify(
      signedNotification(chain, APP, {
        notificationType: 'EXPIRED',
        signedDate: at - 5000,
        ...subscriptionState(v, original, { signedDate: at - 5000, expiresDate: at - 6000 }),
      }),
    );
    expect(late.status).toBe(200);
    expect((await subscription(v.accountId))?.status).toBe('active');
  });

  it("a refund asked for, declined, made or reversed on an earlier period's transaction leaves the current period paid", async () => {
    // Apple: in a refund flow, signedTransactionInfo is the transaction the customer asked about,
    // which may be an earlier period's; the renewal info's renewalDate is the latest's expiry.
    const v = await viewer();
    const original = transactionId();
    const at = Date.now() - 60_000;
    const current = {
      transactionId: transactionId(),
      purchaseDate: at - 10 * DAY,
      expiresDate: at + 20 * DAY,
    };
    const earlier = { transactionId: original, purchaseDate: at - 40 * DAY, expiresDate: at - 10 * DAY };
    const send = (notificationType: string, signedDate: number, fields: Partial<TransactionFields>) =>
      notify(
        signedNotification(chain, APP, {
          notificationType,
          signedDate,
          ...subscriptionState(v, original, { signedDate, ...fields }, { renewalDate: current.expiresDate }),
        }),
      );
    expect((await send('DID_RENEW', at, current)).body.data.outcome).toBe('processed');
    const outcomes: string[] = [];
    for (const [i, type] of [
      'CONSUMPTION_REQUEST',
      'REFUND_DECLINED',
      'REFUND',
      'REFUND_REVERSED',
    ].entries()) {
      const res = await send(type, at + (i + 1) * 1000, {
        ...earlier,
        ...(type === 'REFUND' ? { revocationDate: at + 1000 } : {}),
      });
      outcomes.push(`${type} ${res.status}`);
      const [view] = await entitlementsOf(api, v.token);
      expect({ type, status: view?.status, grants: view?.grants_access }).toEqual({
        type,
        status: 'active',
        grants: true,
      });
    }
    expect(outcomes).toEqual([
      'CONSUMPTION_REQUEST 200',
      'REFUND_DECLINED 200',
      'REFUND 200',
      'REFUND_REVERSED 200',
    ]);
    expect((await subscription(v.accountId))?.valid_until).toBe(new Date(current.expiresDate).toISOString());
    // A refund of the current period's transaction ends access, as before.
    await send('REFUND', at + 10_000, { ...current, revocationDate: at + 10_000 });
    expect((await subscription(v.accountId))?.status).toBe('refunded');
  });

  it('a grace period ends access at its end without any further notification', async () => {
    const v = await viewer();
    const at = Date.now();
    const graceEnd = at + 2500;
    await notify(
      signedNotification(chain, APP, {
        notificationType: 'DID_FAIL_TO_RENEW',
        subtype: 'GRACE_PERIOD',
        signedDate: at,
        ...subscriptionState(
          v,
          transactionId(),
          { signedDate: at, expiresDate: at - 1000 },
          { isInBillingRetryPeriod: true, gracePeriodExpiresDate: graceEnd },
        ),
      }),
    );
    const [during] = await entitlementsOf(api, v.token);
    expect(during).toMatchObject({
      status: 'past_due',
      grace_until: new Date(graceEnd).toISOString(),
      grants_access: true,
    });
    await new Promise((resolve) => setTimeout(resolve, graceEnd - Date.now() + 200));
    const [after] = await entitlementsOf(api, v.token);
    expect(after).toMatchObject({ status: 'past_due', grants_access: false });
  });

  it('a one-time purchase (pay-per-view) is bought with ONE_TIME_CHARGE and taken back by REFUND', async () => {
    const v = await viewer();
    const id = transactionId();
    const productId = productIdOf(PREFIX, { kind: 'purchase', contentId: ppvId });
    const purchase = (at: number, revoked?: number) =>
      signedTransaction(chain, APP, {
        productId,
        appAccountToken: v.appToken,
        transactionId: id,
        type: 'Non-Consumable',
        price: 2990,
        currency: 'EUR',
        signedDate: at,
        ...(revoked ? { revocationDate: revoked } : {}),
      });
    const at = Date.now();
    const bought = await notify(
      signedNotification(chain, APP, {
        notificationType: 'ONE_TIME_CHARGE',
        signedDate: at,
        signedTransactionInfo: purchase(at),
      }),
    );
    expect(bought.body.data.outcome).toBe('processed');
    expect(await entitlementsOf(api, v.token)).toEqual([
      expect.objectContaining({
        kind: 'purchase',
        content_id: ppvId,
        status: 'active',
        source: 'apple',
        grants_access: true,
      }),
    ]);
    await notify(
      signedNotification(chain, APP, {
        notificationType: 'REFUND',
        signedDate: at + 1000,
        signedTransactionInfo: purchase(at + 1000, at + 1000),
      }),
    );
    expect(await entitlementsOf(api, v.token)).toEqual([
      expect.objectContaining({
        kind: 'purchase',
        content_id: ppvId,
        status: 'refunded',
        grants_access: false,
      }),
    ]);
  });
});

describe('POST /billing/apple/transactions: the app unlocks a purchase at once', () => {
  const purchase = (
    appToken: string,
    productId = productIdOf(PREFIX, { kind: 'purchase', contentId: ppvId }),
  ) =>
    signedTransaction(chain, APP, {
      productId,
      appAccountToken: appToken,
      type: 'Non-Consumable',
      price: 1990,
    });

  it("applies the caller's own signed transaction and answers the entitlement", async () => {
    const v = await viewer();
    const res = await api.post('/billing/apple/transactions', {
      token: v.token,
      body: { signed_transaction: purchase(v.appToken) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      kind: 'purchase',
      content_id: ppvId,
      source: 'apple',
      grants_access: true,
    });
  });

  it("refuses another account's transaction (403), another app's (400), a product not sold here (422)", async () => {
    const [v, other] = await Promise.all([viewer(), viewer()]);
    const theirs = await api.post('/billing/apple/transactions', {
      token: v.token,
      body: { signed_transaction: purchase(other.appToken) },
    });
    expect(theirs.status).toBe(403);
    const foreign = await api.post('/billing/apple/transactions', {
      token: v.token,
      body: {
        signed_transaction: signedTransaction(
          chain,
          { bundleId: 'com.other.app', environment: 'Sandbox' },
          {
            productId: 'x',
            appAccountToken: v.appToken,
          },
        ),
      },
    });
    expect(foreign.status).toBe(400);
    const unknown = await api.post('/billing/apple/transactions', {
      token: v.token,
      body: { signed_transaction: purchase(v.appToken, 'com.other.coins') },
    });
    expect(unknown.status).toBe(422);
    expect(await entitlementsOf(api, v.token)).toEqual([]);
    const anonymous = await api.post('/billing/apple/transactions', {
      body: { signed_transaction: purchase(v.appToken) },
    });
    expect(anonymous.status).toBe(401);
    const bad = await api.post('/billing/apple/transactions', {
      token: v.token,
      body: { signed_transaction: 1 },
    });
    expect(bad.status).toBe(422);
  });
});
