import { newViewer } from '../support/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as reconcileStores } from '../../functions/billing/reconcile-stores.ts';
import { storeReconcileRow } from '../../functions/payments/workers.ts';
import {
  type AppStoreStandIn,
  startAppStoreStandIn,
  useAppStoreStandIn,
} from '../../scripts/local/appstore/server.ts';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { type PlayStandIn, startPlayStandIn, usePlayStandIn } from '../../scripts/local/play/server.ts';
import { getEntitlement } from '../../shared/entitlements/entitlement-repository.ts';
import { ensureAppAccountToken, getAccount } from '../../shared/identity/account-repository.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { STORE_DEFAULTS } from '../../shared/stores/access.ts';
import { testApi } from '../support/api.ts';

/**
 * Issue 37 item 5: the store reconcile, run as its function (its environment, its grants), against
 * the App Store and Play stand-ins of this file. Their billing period is an hour, so every
 * subscription bought here is close to expiry (in the renewal index's window). A happening sent
 * with `deliver: false` is a lost notification: the store changed, the entitlement did not.
 * Other files' store entitlements may be in the window too (one DynamoDB Local): this stand-in
 * does not know them, so they are errors of a run, never corrections; the assertions name this
 * file's accounts.
 */
let appStore: AppStoreStandIn;
let play: PlayStandIn;
let creatorId: string;
const HOUR = 3_600_000;

const appTokenOf = async (accountId: string) => {
  const account = await getAccount(accountId);
  return account ? (await ensureAppAccountToken(account)).app_account_token : undefined;
};

beforeAll(async () => {
  appStore = await startAppStoreStandIn({
    app: { bundleId: STORE_DEFAULTS.appleBundleId, environment: 'Sandbox' },
    productPrefix: STORE_DEFAULTS.productPrefix,
    appTokenOf,
    periodMs: HOUR,
  });
  play = await startPlayStandIn({
    packageName: STORE_DEFAULTS.playPackageName,
    productPrefix: STORE_DEFAULTS.productPrefix,
    pushAudience: STORE_DEFAULTS.playPushAudience,
    pushServiceAccount: STORE_DEFAULTS.playPushServiceAccount,
    appTokenOf,
    periodMs: HOUR,
  });
  useAppStoreStandIn(appStore);
  usePlayStandIn(play);
  const api = await testApi();
  appStore.connect(`${api.url}/billing/apple/notifications`);
  play.connect(`${api.url}/billing/google/notifications`);
  creatorId = generateCatalog({ seed: 42, now: api.seededAt }).episodes.find(
    (e) => e.access === 'premium',
  )!.creator_id;
}, 120_000);
afterAll(async () => {
  await appStore?.stop();
  await play?.stop();
});

const viewer = async () => (await newViewer('reconcile')).accountId;
const run = () => runAsFunction(functionContext(storeReconcileRow), () => reconcileStores());
const held = (accountId: string) => getEntitlement(accountId, { kind: 'subscription', creatorId });
const failed = (report: Awaited<ReturnType<typeof run>>, accountId: string) =>
  report.failures.some((f) => f.account_id === accountId);

/** A subscription bought and notified in each store; then `change` happens in each without a notification. */
const subscribed = async (change: { apple: string; google: string }) => {
  const apple = await viewer();
  const google = await viewer();
  const bought = [
    await appStore.notify({ type: 'SUBSCRIBED', account_id: apple, target: creatorId }),
    await play.notify({ type: 'PURCHASED', account_id: google, target: creatorId }),
  ];
  expect(bought.map((b) => b.delivery.status)).toEqual([200, 200]);
  expect((await held(apple))?.status).toBe('active');
  expect((await held(google))?.status).toBe('active');
  await appStore.notify({ type: change.apple, account_id: apple, target: creatorId, deliver: false });
  await play.notify({ type: change.google, account_id: google, target: creatorId, deliver: false });
  return { apple, google };
};

describe('the store reconcile (run as its function, under its grants)', () => {
  it('corrects what a lost notification left wrong, and a second run changes nothing', async () => {
    const refunded = await subscribed({ apple: 'REFUND', google: 'EXPIRED' });
    const renewed = await subscribed({ apple: 'DID_RENEW', google: 'RENEWED' });
    const before = (await held(renewed.apple))!.valid_until!;
    const first = await run();
    expect(first.corrected).toBe(4);
    expect(first.checked).toBeGreaterThanOrEqual(4);
    expect(Object.values({ ...refunded, ...renewed }).some((id) => failed(first, id))).toBe(false);
    expect(await held(refunded.apple)).toMatchObject({ source: 'apple', status: 'refunded' });
    expect(await held(refunded.google)).toMatchObject({ source: 'google', status: 'expired' });
    // The renewals Apple and Google charged: access runs to the new period's end.
    expect(Date.parse((await held(renewed.apple))!.valid_until!)).toBeGreaterThan(
      Date.parse(before) + HOUR / 2,
    );
    expect(await held(renewed.google)).toMatchObject({ status: 'active' });
    expect(Date.parse((await held(renewed.google))!.valid_until!)).toBeGreaterThan(Date.now() + HOUR);

    const states = await Promise.all(Object.values({ ...refunded, ...renewed }).map(held));
    const second = await run();
    expect(second.corrected).toBe(0);
    expect(await Promise.all(Object.values({ ...refunded, ...renewed }).map(held))).toEqual(states);
  });

  it('a store outage changes nothing and is counted; the next run corrects', async () => {
    const lost = await subscribed({ apple: 'REFUND', google: 'EXPIRED' });
    const states = [await held(lost.apple), await held(lost.google)];
    appStore.outage(503);
    play.outage(503);
    try {
      const during = await run();
      expect(during.errors).toBeGreaterThanOrEqual(2);
      expect(during.corrected).toBe(0);
      expect(failed(during, lost.apple) && failed(during, lost.google)).toBe(true);
      expect(during.failures.find((f) => f.account_id === lost.apple)?.error).toMatch(/503/);
      expect([await held(lost.apple), await held(lost.google)]).toEqual(states);
      expect(states.map((s) => s?.status)).toEqual(['active', 'active']);
    } finally {
      appStore.outage(undefined);
      play.outage(undefined);
    }
    const after = await run();
    expect(after.corrected).toBe(2);
    expect([(await held(lost.apple))?.status, (await held(lost.google))?.status]).toEqual([
      'refunded',
      'expired',
    ]);
  });
});
