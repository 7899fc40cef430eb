import * as z from 'zod/mini';
import { described } from '../schema/schema-meta.ts';

/** The currencies a creator may charge in (a plan, a pay-per-view episode). */
export const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD'] as const;

/** A price a viewer pays, in major units: 0.50-999.99 with at most 2 decimals (Stripe's minimum charge and our cap). */
export const chargePrice = (what: string) =>
  described(
    z.number({ error: 'must be a number' }).check(
      z.gte(0.5, { error: 'must be at least 0.50' }),
      z.lte(999.99, { error: 'must be at most 999.99' }),
      // Not `n * 100` is whole: in binary floating point 1.1 * 100 is 110.00000000000001, which
      // refused 9,171 of the 99,950 prices in range (1.10, 4.35, 0.57...).
      z.refine((n) => Number(n.toFixed(2)) === n, { error: 'must have at most 2 decimals' }),
    ),
    `${what} in major units (0.50-999.99, at most 2 decimals)`,
    4.99,
  );

/** The currency of a price (one of CURRENCIES). */
export const chargeCurrency = () =>
  described(
    z.enum(CURRENCIES, { error: `must be one of: ${CURRENCIES.join(', ')}` }),
    'ISO 4217 currency',
    'USD',
  );
