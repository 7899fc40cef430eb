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
 * completed but the payment has not settled (delayed methods); `revoked`: an app store took it back
 * for another reason than a refund (Apple's REVOKE: Family Sharing withdrawn; Google's REVOKED).
 */
export const ENTITLEMENT_STATUSES = [
  'active',
  'past_due',
  'expired',
  'refunded',
  'disputed',
  'pending',
  'revoked',
] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

/** Who took the payment: Stripe (web), Apple's App Store, Google Play (docs/payments.md, "App stores"). */
export const ENTITLEMENT_SOURCES = ['stripe', 'apple', 'google'] as const;
export type EntitlementSource = (typeof ENTITLEMENT_SOURCES)[number];
