import { setting } from '../config.ts';

/**
 * The payment settings (shared/payments/access.ts sets them for rows that need `stripe` or
 * `payment-settings`). Apart from the Stripe client so that a row that only shows them (GET
 * /studio/payouts) does not bundle the `stripe` package.
 */

/** Grace after a failed renewal, in days (PAYMENT_GRACE_DAYS, 7 by default in the stack). */
export const graceDays = (): number => Number(setting('PAYMENT_GRACE_DAYS'));

/** The platform's fee on every charge, in percent (APPLICATION_FEE_PERCENT). */
export const applicationFeePercent = (): number => Number(setting('APPLICATION_FEE_PERCENT'));
