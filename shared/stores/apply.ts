import {
  applyEntitlement,
  type EntitlementRecord,
  getEntitlement,
  grants,
} from '../entitlements/entitlement-repository.ts';
import { getEpisode } from '../shows/show-repository.ts';
import { type StoreTarget, targetOfProduct } from './catalogue.ts';

/**
 * Where every store's state lands (both stores, every route and the reconcile): the product id
 * resolved through the catalogue (a pay-per-view item to its creator), then `applyEntitlement`,
 * unless another source holds an entitlement to the same thing that still grants and reaches at
 * least as far (a viewer who subscribed on the web and again in the app keeps the access that
 * lasts: a store's EXPIRED never takes away a live Stripe subscription, and a store purchase made
 * after a web cancel, paid beyond the Stripe period's end, replaces it, so that Stripe's end then
 * leaves it: `applyEntitlement` keeps another object's granting state).
 */
export interface StoreItem {
  creatorId: string;
  contentId?: string;
}

/** What a store product id sells, resolved to a creator (undefined: not ours, or the item is gone). */
export const itemOfProduct = async (prefix: string, productId: string): Promise<StoreItem | undefined> => {
  const target: StoreTarget | undefined = targetOfProduct(prefix, productId);
  if (!target) return undefined;
  if (target.kind === 'subscription') return { creatorId: target.creatorId };
  const episode = await getEpisode(target.contentId);
  return episode ? { creatorId: episode.creator_id, contentId: episode.id } : undefined;
};

/** When `e`'s access ends (ms): its paid-up time, or a past_due's grace if later; never for null. */
const accessEnd = (e: EntitlementRecord): number => {
  if (e.valid_until === null) return Number.POSITIVE_INFINITY;
  const grace =
    e.status === 'past_due' && e.grace_until ? Date.parse(e.grace_until) : Number.NEGATIVE_INFINITY;
  return Math.max(Date.parse(e.valid_until), grace);
};

/**
 * Writes a store's entitlement record unless a granting one from another source is there that
 * reaches at least as far. Answers whether it was written (false: kept the other source's, or a
 * later observation is stored).
 */
export const applyStoreEntitlement = async (record: EntitlementRecord, now: Date): Promise<boolean> => {
  const current = await getEntitlement(
    record.account_id,
    record.kind === 'subscription'
      ? { kind: 'subscription', creatorId: record.creator_id }
      : { kind: 'purchase', creatorId: record.creator_id, contentId: record.content_id ?? '' },
  );
  const keepsOther =
    current !== undefined &&
    current.source !== record.source &&
    grants(current, now) &&
    !(grants(record, now) && accessEnd(record) > accessEnd(current));
  if (keepsOther) return false;
  return applyEntitlement(record, now);
};
