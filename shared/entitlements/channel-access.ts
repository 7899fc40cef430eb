import type { CreatorRecord } from '../catalog/model.ts';
import { ForbiddenError } from '../errors/errors.ts';
import { type EntitlementRecord, entitlementsOf, grants } from './entitlement-repository.ts';

/**
 * Channel access by subscription, moved out of shared/live as it stood (issue 35): the
 * payments issue rebuilds subscriptions on entitlements.
 */

/** The account's subscription to the creator, if any (one Query). */
export const subscriptionOf = async (accountId: string, creatorId: string) =>
  (await entitlementsOf(accountId, creatorId)).find((e) => e.kind === 'subscription');

/**
 * 403 unless the channel is open, is the account's own (a creator watches their own channel), or
 * the account's subscription grants access now, given the
 * subscription read ahead (alongside the creator, issue 41) under the creator id the caller
 * named (`asked`): read again under the creator's id when the caller named it by its slug.
 */
export const checkAccess = async (
  creator: CreatorRecord,
  accountId: string,
  asked: string,
  readAhead: EntitlementRecord | undefined,
  now: Date,
) => {
  if (!creator.channel.requires_subscription || creator.id === accountId) return;
  const subscription = creator.id === asked ? readAhead : await subscriptionOf(accountId, creator.id);
  if (!grants(subscription, now)) throw new ForbiddenError('This channel requires an active subscription');
};

/** 403 unless the channel is open or the account's own, or it holds a subscription that grants access now (checkAccess). */
export const requireAccess = async (creator: CreatorRecord, accountId: string, now: Date) => {
  if (creator.channel.requires_subscription)
    await checkAccess(creator, accountId, creator.id, await subscriptionOf(accountId, creator.id), now);
};
