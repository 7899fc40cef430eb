import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { chargePrice } from '../../shared/catalog/price.ts';

/** The price a creator sets for a plan or a pay-per-view item (shared/catalog/price.ts). */
describe('chargePrice', () => {
  const schema = chargePrice('Price');
  const ok = (n: number) => z.safeParse(schema, n).success;

  it('takes every price of whole cents from 0.50 to 999.99 (1.10, 4.35 and 0.57 too)', () => {
    const refused: number[] = [];
    for (let cents = 50; cents <= 99_999; cents++) {
      const price = Number((cents / 100).toFixed(2));
      if (!ok(price)) refused.push(price);
    }
    expect(refused.length, `refused, first: ${refused.slice(0, 8).join(', ')}`).toBe(0);
  });

  it('refuses a third decimal and what is out of range', () => {
    for (const price of [4.355, 0.001, 1.105, 0.49, 1000, -1, Number.NaN])
      expect(ok(price), String(price)).toBe(false);
  });
});
