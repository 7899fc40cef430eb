import { describe, expect, it } from 'vitest';
import { checkoutKey, sessionExpiry } from '../../shared/payments/checkout.ts';

/**
 * A retried checkout reuses its idempotency key for 30 minutes; Stripe refuses a reused key with
 * different parameters, so nothing a checkout sends may change within the window (the session's
 * expiry used to be now + 1 h: a retry a second later was a 500 through Stripe's idempotency error).
 */
describe('a checkout session expiry (shared/payments/checkout.ts)', () => {
  it('is the same for every request of one idempotency window, 60 to 90 minutes ahead', () => {
    const start = Date.parse('2026-11-29T06:30:00Z');
    for (const offset of [0, 1_000, 59_000, 29 * 60_000 + 59_000]) {
      const now = new Date(start + offset);
      expect(checkoutKey(['acc', 'sub', 'cr'], now)).toBe(checkoutKey(['acc', 'sub', 'cr'], new Date(start)));
      expect(sessionExpiry(now)).toBe(sessionExpiry(new Date(start)));
      const ahead = sessionExpiry(now) * 1000 - now.getTime();
      expect(ahead).toBeGreaterThanOrEqual(60 * 60_000);
      expect(ahead).toBeLessThanOrEqual(90 * 60_000);
    }
    expect(sessionExpiry(new Date(start + 30 * 60_000))).toBe(sessionExpiry(new Date(start)) + 30 * 60);
  });
});
