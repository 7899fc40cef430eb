import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applyEntitlement,
  getEntitlement,
  grants,
} from '../../shared/entitlements/entitlement-repository.ts';
import { applyStoreEntitlement } from '../../shared/stores/apply.ts';
import { entitlement } from '../support/entitlements.ts';

/**
 * `applyEntitlement`, the one write of the paywall's table (docs/payments.md, "Entitlements"):
 * besides moving forward in provider time, a state that does not grant never replaces one that
 * grants from another provider object. Found by the outside probe of money and identity: the
 * daily reconcile wrote an ended first subscription's `expired` over a resubscriber's paid one
 * (test/shows/paywall.int.test.ts), and a Stripe subscription's end took away an App Store one.
 */
const DAY = 86_400_000;
const NOW = new Date('2026-06-01T00:00:00.000Z');
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

const holder = () => {
  const account_id = `acc_ew_${randomUUID()}`;
  const creator_id = `cr_ew_${randomUUID().slice(0, 8)}`;
  return { account_id, creator_id, target: { kind: 'subscription', creatorId: creator_id } as const };
};

describe('applyEntitlement: another provider object cannot take away access', () => {
  it("a Stripe subscription's end leaves an App Store subscription that is paid up", async () => {
    const { account_id, creator_id, target } = holder();
    const apple = entitlement({
      account_id,
      creator_id,
      source: 'apple',
      valid_until: at(30).toISOString(),
      observed_at: NOW.getTime(),
      provider: { original_transaction_id: '2000000000000001' },
    });
    expect(await applyEntitlement(apple, NOW)).toBe(true);
    const stripeEnded = entitlement({
      account_id,
      creator_id,
      status: 'expired',
      valid_until: at(1).toISOString(),
      observed_at: at(1).getTime(),
      provider: { subscription_id: 'sub_old' },
    });
    expect(await applyEntitlement(stripeEnded, at(1))).toBe(false);
    expect(grants(await getEntitlement(account_id, target), at(1))).toBe(true);
    // The App Store's own end is written.
    const appleEnded = { ...apple, status: 'expired' as const, observed_at: at(2).getTime() };
    expect(await applyEntitlement(appleEnded, at(2))).toBe(true);
    expect((await getEntitlement(account_id, target))?.status).toBe('expired');
  });

  it('an App Store subscription bought after a web cancel is kept when it is paid beyond the Stripe period', async () => {
    // The probe's gap: the store purchase was refused while the cancelled Stripe subscription still
    // granted, and at that period's end the viewer who pays Apple had no access.
    const { account_id, creator_id, target } = holder();
    const stripeCancelled = entitlement({
      account_id,
      creator_id,
      valid_until: at(10).toISOString(),
      observed_at: NOW.getTime(),
      provider: { subscription_id: 'sub_web' },
    });
    expect(await applyEntitlement(stripeCancelled, NOW)).toBe(true);
    const apple = (days: number, observed: number) =>
      entitlement({
        account_id,
        creator_id,
        source: 'apple',
        valid_until: at(days).toISOString(),
        observed_at: at(observed).getTime(),
        provider: { original_transaction_id: `20000000000000${days}` },
      });
    // One that ends sooner than Stripe's period is not taken: Stripe's access lasts longer.
    expect(await applyStoreEntitlement(apple(5, 1), at(1))).toBe(false);
    expect((await getEntitlement(account_id, target))?.source).toBe('stripe');
    // One paid beyond it is.
    expect(await applyStoreEntitlement(apple(31, 1), at(1))).toBe(true);
    expect((await getEntitlement(account_id, target))?.source).toBe('apple');
    // Stripe's end then leaves it.
    const stripeEnded = { ...stripeCancelled, status: 'expired' as const, observed_at: at(10).getTime() };
    expect(await applyEntitlement(stripeEnded, at(10))).toBe(false);
    expect(grants(await getEntitlement(account_id, target), at(10))).toBe(true);
  });

  it("another subscription's end is written once the stored one no longer grants, and a past_due in grace is kept", async () => {
    const { account_id, creator_id, target } = holder();
    const second = entitlement({
      account_id,
      creator_id,
      status: 'past_due',
      valid_until: NOW.toISOString(),
      grace_until: at(7).toISOString(),
      observed_at: NOW.getTime(),
      provider: { subscription_id: 'sub_second' },
    });
    expect(await applyEntitlement(second, NOW)).toBe(true);
    const first = entitlement({
      account_id,
      creator_id,
      status: 'expired',
      valid_until: at(-30).toISOString(),
      observed_at: at(1).getTime(),
      provider: { subscription_id: 'sub_first' },
    });
    expect(await applyEntitlement(first, at(1))).toBe(false); // in grace: kept
    expect((await getEntitlement(account_id, target))?.provider.subscription_id).toBe('sub_second');
    expect(await applyEntitlement({ ...first, observed_at: at(8).getTime() }, at(8))).toBe(true);
    expect((await getEntitlement(account_id, target))?.provider.subscription_id).toBe('sub_first');
  });

  it("another subscription's failed renewal (past_due, in grace) does not replace one that is paid up", async () => {
    // The clean-clone CI run of ee90c6f: the daily reconcile lists the newer subscription first,
    // then wrote the older one's past_due over it (test/payments/duplicate-payments.int.test.ts).
    const { account_id, creator_id, target } = holder();
    const paid = entitlement({
      account_id,
      creator_id,
      valid_until: at(30).toISOString(),
      observed_at: NOW.getTime(),
      provider: { subscription_id: 'sub_paid' },
    });
    expect(await applyEntitlement(paid, NOW)).toBe(true);
    const failing = entitlement({
      account_id,
      creator_id,
      status: 'past_due',
      valid_until: NOW.toISOString(),
      grace_until: at(7).toISOString(),
      observed_at: at(1).getTime(),
      provider: { subscription_id: 'sub_failing' },
    });
    expect(await applyEntitlement(failing, at(1))).toBe(false);
    expect(await getEntitlement(account_id, target)).toMatchObject({
      status: 'active',
      provider: { subscription_id: 'sub_paid' },
    });
    // The paid one's own failure is written.
    const paidFailing = {
      ...failing,
      provider: { subscription_id: 'sub_paid' },
      observed_at: at(2).getTime(),
    };
    expect(await applyEntitlement(paidFailing, at(2))).toBe(true);
    expect((await getEntitlement(account_id, target))?.status).toBe('past_due');
  });

  it('a purchase refunded through another payment intent does not lock the one paid', async () => {
    const account_id = `acc_ew_${randomUUID()}`;
    const purchase = entitlement({
      account_id,
      kind: 'purchase',
      content_id: 'ep_ew_1',
      valid_until: null,
      observed_at: NOW.getTime(),
      provider: { payment_intent_id: 'pi_paid' },
    });
    expect(await applyEntitlement(purchase, NOW)).toBe(true);
    const otherRefunded = {
      ...purchase,
      status: 'refunded' as const,
      observed_at: at(1).getTime(),
      provider: { payment_intent_id: 'pi_other' },
    };
    expect(await applyEntitlement(otherRefunded, at(1))).toBe(false);
    const target = { kind: 'purchase', creatorId: purchase.creator_id, contentId: 'ep_ew_1' } as const;
    expect((await getEntitlement(account_id, target))?.status).toBe('active');
    expect(
      await applyEntitlement({ ...purchase, status: 'refunded', observed_at: at(2).getTime() }, at(2)),
    ).toBe(true);
    expect((await getEntitlement(account_id, target))?.status).toBe('refunded');
  });
});
