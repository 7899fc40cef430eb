import type { SubscriptionStatus } from '../catalog/model.ts';
import { type EntitlementRecord, grants } from './entitlement-repository.ts';

/** `user_subscription` of the creator detail, the subscribe banner and the subscription routes. */
export interface UserSubscription {
  is_subscribed: boolean;
  subscribed_at: string | null;
  renewal_date: string | null;
  status: SubscriptionStatus | null;
}

/**
 * The viewer's subscription as the interface shows it, from its entitlement alone: `active`
 * (renews at `renewal_date`), `cancelled` (cancelled at period end: access until `renewal_date`),
 * `past_due` (a renewal failed: access through the grace period), `expired` (no access now);
 * `null` without one (or while its first payment is pending).
 */
export const userSubscription = (sub: EntitlementRecord | undefined, now: Date): UserSubscription => {
  const granted = grants(sub, now);
  const status: SubscriptionStatus | null =
    !sub || (!granted && sub.status === 'pending')
      ? null
      : !granted
        ? 'expired'
        : sub.status === 'past_due'
          ? 'past_due'
          : sub.cancel_at_period_end
            ? 'cancelled'
            : 'active';
  return {
    is_subscribed: granted,
    subscribed_at: status === null ? null : sub!.started_at,
    renewal_date: status === null ? null : sub!.valid_until,
    status,
  };
};
