import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppStoreStandIn, startAppStoreStandIn } from '../../scripts/local/appstore/server.ts';
import { payStore } from '../../scripts/local/stores-pay.ts';
import { ensureAppAccountToken, getAccount } from '../../shared/identity/account-repository.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { STORE_DEFAULTS } from '../../shared/stores/access.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { entitlementsOf, newViewer } from '../support/payments.ts';

/**
 * The App Store stand-in (scripts/local/appstore/server.ts) and `npm run pay -- apple`: each
 * happening sends the notification Apple would, signed with the stand-in's chain, whose root the
 * App Store secret holds, as `npm start` wires it (scripts/local/platform.ts).
 */
let api: TestApi;
let standIn: AppStoreStandIn;
let creatorId: string;
let ppvId: string;

beforeAll(async () => {
  standIn = await startAppStoreStandIn({
    app: { bundleId: STORE_DEFAULTS.appleBundleId, environment: 'Sandbox' },
    productPrefix: STORE_DEFAULTS.productPrefix,
    appTokenOf: async (accountId) => {
      const account = await getAccount(accountId);
      return account ? (await ensureAppAccountToken(account)).app_account_token : undefined;
    },
    graceMs: 2000,
  });
  process.env.LOCAL_APP_STORE_SECRET = JSON.stringify({
    root_certificates: [standIn.chain.root.toString('base64')],
  });
  api = await testApi();
  standIn.connect(`${api.url}/billing/apple/notifications`);
  process.env.APP_STORE_PORT = new URL(standIn.endpoint).port;
  const catalog = generateCatalog({ seed: 42, now: api.seededAt });
  creatorId = catalog.episodes.find((e) => e.access === 'premium')!.creator_id;
  ppvId = catalog.episodes.find((e) => e.access === 'ppv')!.id;
}, 120_000);
afterAll(async () => {
  await standIn?.stop();
});

const viewer = () => newViewer('store');
const held = async (token: string) => (await entitlementsOf(api, token))[0];

describe('npm run pay -- apple', () => {
  it('SUBSCRIBED unlocks the subscription, REFUND locks it again (exit 0 each)', async () => {
    const v = await viewer();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(await payStore(['apple', 'SUBSCRIBED', v.accountId, creatorId])).toBe(0);
    expect(await held(v.token)).toMatchObject({ source: 'apple', status: 'active', grants_access: true });
    expect(await payStore(['apple', 'REFUND', v.accountId, creatorId])).toBe(0);
    expect(await held(v.token)).toMatchObject({ status: 'refunded', grants_access: false });
    expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(
      /answered 200 .*"outcome":"processed"/,
    );
    log.mockRestore();
  });

  it('renewal off and on, a failed renewal with grace that ends by itself, recovery, expiry', async () => {
    const v = await viewer();
    const run = (type: string) => standIn.notify({ type, account_id: v.accountId, target: creatorId });
    await run('SUBSCRIBED');
    await run('DID_CHANGE_RENEWAL_STATUS');
    expect(await held(v.token)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    await run('DID_CHANGE_RENEWAL_STATUS');
    expect(await held(v.token)).toMatchObject({ cancel_at_period_end: false });
    await run('DID_FAIL_TO_RENEW:GRACE_PERIOD');
    expect(await held(v.token)).toMatchObject({ status: 'past_due', grants_access: true });
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(await held(v.token)).toMatchObject({ status: 'past_due', grants_access: false });
    const recovered = await run('DID_RENEW');
    expect(recovered.notification.subtype).toBe('BILLING_RECOVERY');
    expect(await held(v.token)).toMatchObject({ status: 'active', grants_access: true });
    await run('DID_FAIL_TO_RENEW');
    expect(await held(v.token)).toMatchObject({ status: 'past_due', grants_access: false });
    await run('EXPIRED');
    expect(await held(v.token)).toMatchObject({ status: 'expired', grants_access: false });
  });

  it('a pay-per-view item: ONE_TIME_CHARGE ppv:<content id>, then REVOKE', async () => {
    const v = await viewer();
    await standIn.notify({ type: 'ONE_TIME_CHARGE', account_id: v.accountId, target: `ppv:${ppvId}` });
    expect(await held(v.token)).toMatchObject({ kind: 'purchase', content_id: ppvId, grants_access: true });
    await standIn.notify({ type: 'REVOKE', account_id: v.accountId, target: `ppv:${ppvId}` });
    expect(await held(v.token)).toMatchObject({ status: 'revoked', grants_access: false });
  });

  it('exits 1 for an unknown account or a wrong state, 2 for bad usage', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await payStore(['apple', 'SUBSCRIBED', 'acc_nobody', creatorId])).toBe(1);
    const v = await viewer();
    expect(await payStore(['apple', 'DID_RENEW', v.accountId, creatorId])).toBe(1);
    expect(await payStore(['apple', 'NOT_A_TYPE', v.accountId, creatorId])).toBe(2);
    expect(await payStore(['apple', 'SUBSCRIBED'])).toBe(2);
    expect(error.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringContaining('No account acc_nobody'),
      expect.stringContaining('nothing bought yet'),
      expect.stringContaining('usage:'),
      expect.stringContaining('usage:'),
    ]);
    error.mockRestore();
  });
});
