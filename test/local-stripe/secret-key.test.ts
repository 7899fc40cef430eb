import { afterEach, describe, expect, it } from 'vitest';
import { type StripeStandIn, standInSecretKey } from '../../scripts/local/stripe/server.ts';
import { clientFor, startStandIn } from './support.ts';

/**
 * A developer drives the running `npm start`'s Stripe stand-in with the official client (to list
 * the events a checkout made, retrieve a subscription...): that takes the stand-in's secret key,
 * which they choose with STRIPE_STANDIN_SECRET_KEY (docs/local-stripe.md "Your own client").
 */
describe('the Stripe stand-in: its secret key', () => {
  let standIn: StripeStandIn | undefined;
  const before = process.env.STRIPE_STANDIN_SECRET_KEY;
  afterEach(async () => {
    await standIn?.stop();
    standIn = undefined;
    if (before === undefined) delete process.env.STRIPE_STANDIN_SECRET_KEY;
    else process.env.STRIPE_STANDIN_SECRET_KEY = before;
  });

  it('is the one STRIPE_STANDIN_SECRET_KEY names, which the official client then uses', async () => {
    process.env.STRIPE_STANDIN_SECRET_KEY = 'sk_test_my_local_key';
    standIn = await startStandIn();
    const customer = await clientFor(standIn, 'sk_test_my_local_key').customers.create({
      email: 'a@example.com',
    });
    expect(customer.object).toBe('customer');
  });

  it('is a random test key without it, and never a live key', () => {
    expect(standInSecretKey({})).toMatch(/^sk_test_local[0-9a-f]{24}$/);
    expect(standInSecretKey({})).not.toBe(standInSecretKey({}));
    expect(() => standInSecretKey({ STRIPE_STANDIN_SECRET_KEY: 'sk_live_abc' })).toThrow(/test-mode key/);
    expect(() => standInSecretKey({ STRIPE_STANDIN_SECRET_KEY: 'rk_test_abc' })).toThrow(/test-mode key/);
  });
});
