import { clock } from '../clock.ts';
import { setting } from '../config.ts';
import { applyEntitlement, type EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { accountIdOfAppToken } from '../identity/account-repository.ts';
import { applicationFeePercent } from '../payments/settings.ts';
import { itemOfProduct } from './apply.ts';
import { googleProductEntitlement, googleSubscriptionEntitlement } from './google.ts';
import { acknowledgeProduct, acknowledgeSubscription, getProduct, getSubscription } from './play-client.ts';
import { linkedAccountOf, linkPurchase } from './store-repository.ts';

/**
 * A Google Play purchase read from the Play Developer API and applied (docs/payments.md, "App
 * stores: Google Play"): what the notification handler, the app's purchase links and the store
 * reconcile share. No Pub/Sub token verification here, so the reconcile's bundle carries none.
 */
export type Kind = { subscription: true; productId?: string } | { subscription: false; productId: string };

/** The account a purchase belongs to: the link the app made, else its obfuscated account id (the app token). */
const ownerOf = async (purchaseToken: string, obfuscated: string | undefined) =>
  (await linkedAccountOf(purchaseToken)) ?? (obfuscated ? await accountIdOfAppToken(obfuscated) : undefined);

/**
 * What a notification says beside the purchase's state: REVOKED, or a voided purchase (refunded
 * or charged back) and the voided order, which for a subscription may be an earlier period's.
 */
export interface PlayFlags {
  revoked?: boolean;
  voided?: boolean;
  voidedOrderId?: string;
}

/** A purchase as the Play Developer API answers it now: its entitlement, and what is left to do. */
export interface PlayState {
  record: EntitlementRecord;
  /**
   * The instant taken BEFORE Google was asked (orders writes: a read begun before a change may
   * answer the old state however late it answers; SyncContext.now in shared/payments/stripe-sync.ts).
   */
  observedAt: Date;
  /** Acknowledges it (a purchase Google still waits for: after its entitlement is stored). */
  acknowledge?: () => Promise<unknown>;
}

/**
 * Reads the purchase from the Play Developer API: the entitlement its state means for its
 * account (nothing written). Undefined when the purchase, its product or its account is not one
 * of ours.
 */
export const readPlayPurchase = async (
  purchaseToken: string,
  kind: Kind,
  flags: PlayFlags = {},
  accountHint?: string,
): Promise<PlayState | undefined> => {
  const prefix = setting('STORE_PRODUCT_PREFIX');
  const observedAt = clock.now(); // before the read (SyncContext.now's rule)
  if (kind.subscription) {
    const sub = await getSubscription(purchaseToken);
    // A voided order of an earlier period (last month's renewal refunded) leaves the current one
    // as Google says it is: only the latest order's voiding refunds the subscription.
    const voided =
      flags.voided === true &&
      (flags.voidedOrderId === undefined ||
        sub.latestOrderId === undefined ||
        flags.voidedOrderId === sub.latestOrderId);
    const productId = sub.lineItems?.[0]?.productId ?? kind.productId;
    const item = productId ? await itemOfProduct(prefix, productId) : undefined;
    const accountId =
      accountHint ??
      (await ownerOf(purchaseToken, sub.externalAccountIdentifiers?.obfuscatedExternalAccountId));
    if (!item || !accountId || item.contentId !== undefined || !productId) return undefined;
    const record = googleSubscriptionEntitlement(
      sub,
      { accountId, ...item },
      { purchaseToken, observedAt, feePercent: applicationFeePercent(), revoked: flags.revoked, voided },
    );
    const pending =
      sub.acknowledgementState === 'ACKNOWLEDGEMENT_STATE_PENDING' && record.status === 'active';
    return {
      record,
      observedAt,
      ...(pending ? { acknowledge: () => acknowledgeSubscription(productId, purchaseToken) } : {}),
    };
  }
  const purchase = await getProduct(kind.productId, purchaseToken);
  const item = await itemOfProduct(prefix, kind.productId);
  const accountId = accountHint ?? (await ownerOf(purchaseToken, purchase.obfuscatedExternalAccountId));
  if (!item?.contentId || !accountId) return undefined;
  const record = googleProductEntitlement(
    purchase,
    { accountId, ...item },
    { productId: kind.productId, purchaseToken, observedAt, voided: flags.voided },
  );
  const pending = purchase.acknowledgementState === 0 && record.status === 'active';
  return {
    record,
    observedAt,
    ...(pending ? { acknowledge: () => acknowledgeProduct(kind.productId, purchaseToken) } : {}),
  };
};

/**
 * Reads the purchase, applies its state to its account's entitlement and acknowledges it if
 * needed. Undefined when the purchase, its product or its account is not one of ours.
 */
export const syncPlayPurchase = async (
  purchaseToken: string,
  kind: Kind,
  flags: PlayFlags = {},
  accountHint?: string,
) => {
  const state = await readPlayPurchase(purchaseToken, kind, flags, accountHint);
  if (!state) return undefined;
  const { record, observedAt } = state;
  // Remembered, so that a later voided-purchase notification (token only) finds the product.
  if (!kind.subscription) await linkPurchase(purchaseToken, record.account_id, kind.productId, observedAt);
  const written = await applyEntitlement(record, observedAt);
  await state.acknowledge?.();
  return { record, written };
};
