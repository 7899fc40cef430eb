import { requireCreator } from '../creators/creator-repository.ts';
import {
  deleteFollow,
  getRelationship,
  grantsAccess,
  putFollow,
  putSubscription,
} from '../creators/relationship-repository.ts';
import type { FollowState, SubscriptionState } from './schemas.ts';

/**
 * Following and subscribing (designed; the spec shows only their state). No payments: a
 * subscription is a record with `status` (`active`; `cancelled` = still valid until
 * `renewal_date`, then `expired`), `subscribed_at` and `renewal_date` (a month on).
 */
const DAY = 86_400_000;

const subscriptionView = (
  creatorId: string,
  rel: Awaited<ReturnType<typeof getRelationship>>,
  now: Date,
): SubscriptionState => ({
  creator_id: creatorId,
  user_subscription: {
    is_subscribed: grantsAccess(rel.subscription, now),
    subscribed_at: rel.subscription?.subscribed_at ?? null,
    renewal_date: rel.subscription?.renewal_date ?? null,
    status: rel.subscription
      ? new Date(rel.subscription.renewal_date) <= now
        ? 'expired'
        : rel.subscription.status
      : null,
  },
});

export const follow = async (creatorId: string, accountId: string, now: Date): Promise<FollowState> => {
  const creator = await requireCreator(creatorId);
  await putFollow(accountId, creator.id, now);
  return { creator_id: creator.id, is_following: true };
};

export const unfollow = async (creatorId: string, accountId: string): Promise<FollowState> => {
  const creator = await requireCreator(creatorId);
  await deleteFollow(accountId, creator.id);
  return { creator_id: creator.id, is_following: false };
};

/** Starts (or renews) a subscription: active for a month from now. */
export const subscribe = async (
  creatorId: string,
  accountId: string,
  now: Date,
): Promise<SubscriptionState> => {
  const creator = await requireCreator(creatorId);
  const current = (await getRelationship(accountId, creator.id)).subscription;
  const active = current && grantsAccess(current, now);
  await putSubscription({
    account_id: accountId,
    creator_id: creator.id,
    status: 'active',
    subscribed_at: active ? current.subscribed_at : now.toISOString(),
    renewal_date: active ? current.renewal_date : new Date(now.getTime() + 30 * DAY).toISOString(),
  });
  return subscriptionView(creator.id, await getRelationship(accountId, creator.id), now);
};

/** Cancels: access continues until the renewal date, then the subscription expires. */
export const unsubscribe = async (
  creatorId: string,
  accountId: string,
  now: Date,
): Promise<SubscriptionState> => {
  const creator = await requireCreator(creatorId);
  const current = (await getRelationship(accountId, creator.id)).subscription;
  if (current && current.status === 'active') await putSubscription({ ...current, status: 'cancelled' });
  return subscriptionView(creator.id, await getRelationship(accountId, creator.id), now);
};
