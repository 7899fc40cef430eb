import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { PutCommand, UpdateCommand } from '../../shared/db/document.ts';
import { tableName } from '../../shared/db/table.ts';
import {
  applyEntitlement,
  entitlementItem,
  entitlementsOf,
  getEntitlement,
  grants,
  storeRenewalsDue,
} from '../../shared/entitlements/entitlement-repository.ts';
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
    expect(await applyEntitlement(apple(5, 1), at(1))).toBe(false);
    expect((await getEntitlement(account_id, target))?.source).toBe('stripe');
    // One paid beyond it is.
    expect(await applyEntitlement(apple(31, 1), at(1))).toBe(true);
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

/**
 * One item per provider object (docs/payments.md, "One entitlement per account and target"): the
 * entitlement the paywall reads is computed from every object's latest state, so the end of the
 * one shown leaves another that still pays (before: written over it, and no access until the
 * daily reconcile wrote Stripe's state back, up to a day while paying).
 */
describe('applyEntitlement: the entitlement shown is computed from every provider object', () => {
  const stripeSub = (account_id: string, creator_id: string, days: number, observed: number) =>
    entitlement({
      account_id,
      creator_id,
      valid_until: at(days).toISOString(),
      observed_at: at(observed).getTime(),
      provider: { customer_id: 'cus_ew', subscription_id: `sub_ew_${account_id}` },
    });
  const appleSub = (account_id: string, creator_id: string, days: number, observed: number) =>
    entitlement({
      account_id,
      creator_id,
      source: 'apple',
      valid_until: at(days).toISOString(),
      observed_at: at(observed).getTime(),
      provider: { original_transaction_id: '2000000000000777' },
    });
  const googleSub = (account_id: string, creator_id: string, days: number, observed: number) =>
    entitlement({
      account_id,
      creator_id,
      source: 'google',
      valid_until: at(days).toISOString(),
      observed_at: at(observed).getTime(),
      provider: { purchase_token: `token.ew.${account_id}` },
    });

  it("an App Store subscription's end leaves the Stripe one that still pays, at once", async () => {
    const { account_id, creator_id, target } = holder();
    expect(await applyEntitlement(stripeSub(account_id, creator_id, 10, 0), NOW)).toBe(true);
    // Apple's reaches further: it is the one shown.
    expect(await applyEntitlement(appleSub(account_id, creator_id, 31, 1), at(1))).toBe(true);
    expect(await getEntitlement(account_id, target)).toMatchObject({ source: 'apple', status: 'active' });
    // Apple EXPIRED (a refund, a cancelled renewal) while Stripe is paid until day 10.
    const appleEnded = { ...appleSub(account_id, creator_id, 31, 3), status: 'expired' as const };
    expect(await applyEntitlement(appleEnded, at(3))).toBe(true);
    const shown = await getEntitlement(account_id, target);
    expect(shown).toMatchObject({
      source: 'stripe',
      status: 'active',
      valid_until: at(10).toISOString(),
      provider: { subscription_id: `sub_ew_${account_id}` },
    });
    expect(grants(shown, at(3))).toBe(true);
  });

  it("a Stripe subscription's end leaves the App Store one that still pays, at once", async () => {
    const { account_id, creator_id, target } = holder();
    expect(await applyEntitlement(appleSub(account_id, creator_id, 10, 0), NOW)).toBe(true);
    expect(await applyEntitlement(stripeSub(account_id, creator_id, 31, 1), at(1))).toBe(true);
    expect((await getEntitlement(account_id, target))?.source).toBe('stripe');
    const stripeEnded = { ...stripeSub(account_id, creator_id, 3, 3), status: 'expired' as const };
    expect(await applyEntitlement(stripeEnded, at(3))).toBe(true);
    const shown = await getEntitlement(account_id, target);
    expect(shown).toMatchObject({ source: 'apple', status: 'active', valid_until: at(10).toISOString() });
    expect(grants(shown, at(3))).toBe(true);
    // Then Apple's end too: nothing grants, the latest observation is shown.
    const appleEnded = { ...appleSub(account_id, creator_id, 10, 11), status: 'expired' as const };
    expect(await applyEntitlement(appleEnded, at(11))).toBe(true);
    expect(await getEntitlement(account_id, target)).toMatchObject({ source: 'apple', status: 'expired' });
    // One entitlement per target for every reader (the objects' items are not entitlements).
    expect(await entitlementsOf(account_id)).toHaveLength(1);
  });

  it('concurrent writes of different objects end with the right entitlement (several rounds)', async () => {
    for (let round = 0; round < 6; round++) {
      const { account_id, creator_id, target } = holder();
      // All three at once: Apple reaches furthest.
      await Promise.all([
        applyEntitlement(stripeSub(account_id, creator_id, 10, 0), NOW),
        applyEntitlement(appleSub(account_id, creator_id, 30, 0), NOW),
        applyEntitlement(googleSub(account_id, creator_id, 20, 0), NOW),
      ]);
      expect(await getEntitlement(account_id, target), `round ${round}`).toMatchObject({
        source: 'apple',
        valid_until: at(30).toISOString(),
      });
      // Apple and Google end while Stripe renews, at once: Stripe's renewal is what holds.
      await Promise.all([
        applyEntitlement({ ...appleSub(account_id, creator_id, 30, 2), status: 'expired' }, at(2)),
        applyEntitlement({ ...googleSub(account_id, creator_id, 20, 2), status: 'revoked' }, at(2)),
        applyEntitlement(stripeSub(account_id, creator_id, 40, 2), at(2)),
      ]);
      expect(await getEntitlement(account_id, target), `round ${round}`).toMatchObject({
        source: 'stripe',
        status: 'active',
        valid_until: at(40).toISOString(),
      });
    }
  });

  it('a writer that computed from fewer objects than another writer saw reads again (version)', async () => {
    // A fixed interleaving: Stripe's writer has read the objects (only its own) and is about to
    // write the entitlement when Apple's writer, which sees both, writes Apple's (reaching
    // further). Stripe's write then finds another version and computes again from both.
    const { account_id, creator_id, target } = holder();
    const send = db.send.bind(db);
    let releaseStripe = () => {};
    const stripeHeld = new Promise<void>((resolve) => {
      releaseStripe = resolve;
    });
    let stripeReady = () => {};
    const stripeAtWrite = new Promise<void>((resolve) => {
      stripeReady = resolve;
    });
    let held = false;
    const spy = vi.spyOn(db, 'send').mockImplementation((async (command: {
      input: { Key?: { PK?: string; SK?: string }; ExpressionAttributeValues?: Record<string, unknown> };
    }) => {
      const { Key, ExpressionAttributeValues } = command.input;
      const isEntitlementWrite =
        command instanceof UpdateCommand &&
        Key?.PK === `ACCOUNT#${account_id}` &&
        Key.SK?.startsWith('ENTITLEMENT#');
      if (!held && isEntitlementWrite && Object.values(ExpressionAttributeValues ?? {}).includes('stripe')) {
        held = true;
        stripeReady();
        await stripeHeld;
      }
      return send(command as never);
    }) as never);
    try {
      const stripe = applyEntitlement(stripeSub(account_id, creator_id, 10, 0), NOW);
      await stripeAtWrite;
      expect(await applyEntitlement(appleSub(account_id, creator_id, 30, 0), NOW)).toBe(true);
      releaseStripe();
      // Stripe's writer found Apple's already shown: nothing to change.
      expect(await stripe).toBe(false);
    } finally {
      spy.mockRestore();
    }
    expect(held).toBe(true);
    expect(await getEntitlement(account_id, target)).toMatchObject({
      source: 'apple',
      valid_until: at(30).toISOString(),
    });
  });

  it('an entitlement stored before the objects had items is kept by the write of another object', async () => {
    const { account_id, creator_id, target } = holder();
    // As the code before one item per object wrote it: the entitlement item alone.
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: entitlementItem(stripeSub(account_id, creator_id, 10, 0)),
      }),
    );
    // Another object's state that does not grant, then one that grants less far: Stripe's is kept.
    expect(
      await applyEntitlement({ ...appleSub(account_id, creator_id, 5, 1), status: 'expired' }, at(1)),
    ).toBe(false);
    expect(await applyEntitlement(googleSub(account_id, creator_id, 5, 1), at(1))).toBe(false);
    const shown = await getEntitlement(account_id, target);
    expect(shown).toMatchObject({ source: 'stripe', status: 'active', valid_until: at(10).toISOString() });
    expect(grants(shown, at(1))).toBe(true);
    // Stripe's own end (its first item) is written, and Google's, which still pays, is shown.
    const stripeEnded = { ...stripeSub(account_id, creator_id, 2, 2), status: 'expired' as const };
    expect(await applyEntitlement(stripeEnded, at(2))).toBe(true);
    expect(await getEntitlement(account_id, target)).toMatchObject({ source: 'google', status: 'active' });
  });

  it('an App Store entitlement stored before the objects had items still pays once another is shown and ends', async () => {
    const { account_id, creator_id, target } = holder();
    // As the code before wrote it: the entitlement item alone, in the store renewal index.
    const ends = at(5).toISOString();
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...entitlementItem(appleSub(account_id, creator_id, 5, 0)),
          GSI1PK: `STORE_RENEWAL#${ends.slice(0, 10)}`,
          GSI1SK: `${ends}#${account_id}#${creator_id}`,
        },
      }),
    );
    // A Stripe subscription reaching further is shown...
    expect(await applyEntitlement(stripeSub(account_id, creator_id, 30, 1), at(1))).toBe(true);
    expect((await getEntitlement(account_id, target))?.source).toBe('stripe');
    // ...the App Store one is still re-read near its end (once: its object's item)...
    const due = await storeRenewalsDue(at(4), at(6));
    expect(due.filter((e) => e.account_id === account_id)).toMatchObject([{ source: 'apple' }]);
    // ...and Stripe's end shows it again.
    const stripeEnded = { ...stripeSub(account_id, creator_id, 2, 2), status: 'expired' as const };
    expect(await applyEntitlement(stripeEnded, at(2))).toBe(true);
    const shown = await getEntitlement(account_id, target);
    expect(shown).toMatchObject({ source: 'apple', status: 'active', valid_until: ends });
    expect(grants(shown, at(2))).toBe(true);
  });

  it("a store subscription stays in the renewal index while another source's is shown", async () => {
    const { account_id, creator_id, target } = holder();
    expect(await applyEntitlement(stripeSub(account_id, creator_id, 30, 0), NOW)).toBe(true);
    // Apple's ends first: Stripe's is shown, but the store reconcile must still re-read Apple's.
    expect(await applyEntitlement(appleSub(account_id, creator_id, 5, 1), at(1))).toBe(false);
    expect((await getEntitlement(account_id, target))?.source).toBe('stripe');
    const due = await storeRenewalsDue(at(4), at(6));
    expect(due.filter((e) => e.account_id === account_id)).toMatchObject([
      { source: 'apple', valid_until: at(5).toISOString() },
    ]);
  });
});
