/**
 * The entitlement vocabulary (data only, so API contracts can name it without loading the
 * repository's storage code): kinds, statuses and sources. The repository
 * (entitlement-repository.ts) owns the keys and writes.
 */

export const ENTITLEMENT_KINDS = ['subscription', 'purchase'] as const;
export type EntitlementKind = (typeof ENTITLEMENT_KINDS)[number];

/**
 * `active`: paid up (a purchase forever, a subscription until `valid_until`); `past_due`: a renewal
 * failed, access holds until `grace_until`; `expired`: the subscription ended; `refunded`,
 * `disputed`: a purchase taken back (a won dispute makes it `active` again); `pending`: checkout
 * completed but the payment has not settled (delayed methods).
 */
export const ENTITLEMENT_STATUSES = [
  'active',
  'past_due',
  'expired',
  'refunded',
  'disputed',
  'pending',
] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

export const ENTITLEMENT_SOURCES = ['stripe'] as const;
export type EntitlementSource = (typeof ENTITLEMENT_SOURCES)[number];
