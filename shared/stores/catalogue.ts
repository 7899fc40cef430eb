import type { EntitlementPrice } from '../entitlements/entitlement-repository.ts';

/**
 * The one product catalogue of the app stores (docs/payments.md, "App stores: the catalogue"):
 * every creator's plan and every pay-per-view item has ONE store product id, the same in App Store
 * Connect and the Play Console, derived from our ids so that a store notification names what was
 * bought without any lookup table:
 * - a creator's plan: `<prefix>.sub.<creator id>` (an auto-renewable subscription, one
 *   subscription group per creator on Apple; a subscription with one base plan on Google Play);
 * - a pay-per-view item: `<prefix>.ppv.<content id>` (Apple: non-consumable; Google: a one-time
 *   product).
 * Store product ids may hold letters, digits, `_` and `.` (Apple) and must be lower case (Google);
 * our ids hold letters, digits, `_` and `-`, so `-` is written `.` after the kind (reversible: our
 * ids never hold a `.`). The prefix is the deployment's STORE_PRODUCT_PREFIX (the app's reverse
 * domain, e.g. `tv.creators`). The price is the store's: each store sets it per storefront from
 * the price point chosen for the product, and what it charged is recorded as it reports it
 * (`storePrice`), never our catalogue's figure.
 */
export type StoreTarget =
  | { kind: 'subscription'; creatorId: string }
  | { kind: 'purchase'; contentId: string };

const KIND = { subscription: 'sub', purchase: 'ppv' } as const;
const OUR_ID = /^[A-Za-z0-9_-]{1,120}$/;

/** The store product id of a creator's plan or a pay-per-view item. */
export const productIdOf = (prefix: string, target: StoreTarget): string => {
  const id = target.kind === 'subscription' ? target.creatorId : target.contentId;
  if (!OUR_ID.test(id)) throw new Error(`Not a catalogue id: ${id}`);
  return `${prefix}.${KIND[target.kind]}.${id.replaceAll('-', '.')}`.toLowerCase();
};

/** What a store product id sells, or undefined when it is not one of ours (another app's, a typo). */
export const targetOfProduct = (prefix: string, productId: string): StoreTarget | undefined => {
  const lower = prefix.toLowerCase();
  for (const kind of ['subscription', 'purchase'] as const) {
    const head = `${lower}.${KIND[kind]}.`;
    if (!productId.startsWith(head)) continue;
    const id = productId.slice(head.length).replaceAll('.', '-');
    if (!OUR_ID.test(id)) return undefined;
    return kind === 'subscription' ? { kind, creatorId: id } : { kind, contentId: id };
  }
  return undefined;
};

/** Digits after the decimal point of an ISO 4217 currency (JPY 0, USD 2, BHD 3). */
const exponentOf = (currency: string): number => {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
};

/**
 * A store's charge as an entitlement price (minor units of `currency`): Apple reports milliunits
 * (`price: 4990` for 4.99), Google micros (`priceAmountMicros: 4990000`). The platform fee is the
 * platform's configured share of it, as on Stripe (the store's own commission is the store's
 * business and appears in its payout reports, not here).
 */
export const storePrice = (
  amount: { milliunits: number } | { micros: number },
  currency: string,
  interval: EntitlementPrice['interval'],
  feePercent: number,
): EntitlementPrice => {
  const major = 'milliunits' in amount ? amount.milliunits / 1000 : amount.micros / 1_000_000;
  const minor = Math.round(major * 10 ** exponentOf(currency.toUpperCase()));
  return {
    amount: minor,
    currency: currency.toLowerCase(),
    interval,
    platform_fee: Math.round((minor * feePercent) / 100),
  };
};

/** A subscription's interval from one period's length (the stores report dates, not the interval). */
export const intervalOf = (fromMs: number, toMs: number): EntitlementPrice['interval'] => {
  const days = (toMs - fromMs) / 86_400_000;
  if (days >= 300) return 'year';
  if (days >= 27) return 'month';
  if (days >= 6) return 'week';
  return 'day';
};
