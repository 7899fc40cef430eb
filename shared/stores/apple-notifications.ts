import { applyEntitlement, getEntitlement } from '../entitlements/entitlement-repository.ts';
import { entitlementView } from '../entitlements/my-entitlements.ts';
import { ForbiddenError, ValidationError } from '../errors/errors.ts';
import { setting } from '../config.ts';
import { accountIdOfAppToken } from '../identity/account-repository.ts';
import { applicationFeePercent } from '../payments/settings.ts';
import { type AppleChange, appleEntitlement, describesNow } from './apple.ts';
import { appleVerifier, verifiedBy } from './apple-verifier.ts';
import { itemOfProduct } from './apply.ts';
import { markNotificationProcessed, notificationProcessed } from './store-repository.ts';

/**
 * App Store Server Notifications V2 and the app's signed transactions (docs/payments.md, "App
 * stores: Apple"). Everything is verified with Apple's library before anything is read or
 * written; a notification is processed once (its `notificationUUID`, a conditional put after its
 * effects); the account is the one whose `app_account_token` the transaction carries.
 */
export interface StoreReceipt {
  received: true;
  notification_id: string;
  type: string;
  /**
   * `processed`; `duplicate` (processed before); `ignored`: nothing to apply (no transaction, a
   * product or account this platform does not know, a notification that says nothing of the state
   * now (`describesNow`), or another source's paid-up entitlement kept).
   */
  outcome: 'processed' | 'duplicate' | 'ignored';
}

type Applied = 'applied' | 'kept' | 'unknown';

/** Applies one verified change for the account its `appAccountToken` names (`caller`: must be that account). */
const applyChange = async (change: AppleChange, now: Date, caller?: string) => {
  const token = change.transaction.appAccountToken;
  const accountId = token ? await accountIdOfAppToken(token) : undefined;
  if (caller !== undefined && accountId !== caller)
    throw new ForbiddenError('This purchase was not made by this account (its appAccountToken is not yours)');
  const item = change.transaction.productId
    ? await itemOfProduct(setting('STORE_PRODUCT_PREFIX'), change.transaction.productId)
    : undefined;
  if (!accountId || !item) return { outcome: 'unknown' as Applied };
  const record = appleEntitlement(change, { accountId, ...item }, applicationFeePercent());
  const written = await applyEntitlement(record, now);
  return { outcome: (written ? 'applied' : 'kept') as Applied, record };
};

/** `POST /billing/apple/notifications`: one signed notification. */
export const receiveAppleNotification = async (signedPayload: string, now: Date): Promise<StoreReceipt> => {
  const verifier = await appleVerifier();
  const notification = await verifiedBy('signedPayload', () =>
    verifier.verifyAndDecodeNotification(signedPayload),
  );
  const id = notification.notificationUUID ?? '';
  const type = String(notification.notificationType ?? '');
  const receipt = { received: true as const, notification_id: id, type };
  if (!id) throw new ValidationError([{ field: 'signedPayload', message: 'has no notificationUUID' }]);
  if (await notificationProcessed('apple', id)) return { ...receipt, outcome: 'duplicate' };
  const data = notification.data;
  if (!data?.signedTransactionInfo) {
    await markNotificationProcessed('apple', { id, type }, now);
    return { ...receipt, outcome: 'ignored' };
  }
  const transaction = await verifiedBy('signedTransactionInfo', () =>
    verifier.verifyAndDecodeTransaction(data.signedTransactionInfo!),
  );
  const renewal = data.signedRenewalInfo
    ? await verifiedBy('signedRenewalInfo', () =>
        verifier.verifyAndDecodeRenewalInfo(data.signedRenewalInfo!),
      )
    : undefined;
  const change: AppleChange = {
    type,
    subtype: notification.subtype === undefined ? undefined : String(notification.subtype),
    transaction,
    renewal,
    signedAt: notification.signedDate ?? now.getTime(),
  };
  if (!describesNow(change)) {
    await markNotificationProcessed('apple', { id, type }, now);
    return { ...receipt, outcome: 'ignored' };
  }
  const { outcome } = await applyChange(change, now);
  // An account or product we do not know yet is not marked: Apple's retries may find it later.
  if (outcome === 'unknown') return { ...receipt, outcome: 'ignored' };
  await markNotificationProcessed('apple', { id, type }, now);
  return { ...receipt, outcome: outcome === 'applied' ? 'processed' : 'ignored' };
};

/**
 * `POST /billing/apple/transactions`: the app's signed transaction right after a purchase, so
 * access does not wait for the notification. Answers the caller's entitlement as it now stands.
 */
export const linkAppleTransaction = async (accountId: string, signedTransaction: string, now: Date) => {
  const verifier = await appleVerifier();
  const transaction = await verifiedBy('signed_transaction', () =>
    verifier.verifyAndDecodeTransaction(signedTransaction),
  );
  const { outcome, record } = await applyChange(
    { transaction, signedAt: transaction.signedDate ?? now.getTime() },
    now,
    accountId,
  );
  if (outcome === 'unknown' || !record)
    throw new ValidationError([
      { field: 'signed_transaction', message: 'is not for a product this platform sells' },
    ]);
  // As it now stands: a newer state already stored, or another source's paid-up one, is what holds.
  const stored = await getEntitlement(
    accountId,
    record.kind === 'subscription'
      ? { kind: 'subscription', creatorId: record.creator_id }
      : { kind: 'purchase', creatorId: record.creator_id, contentId: record.content_id ?? '' },
  );
  return entitlementView(stored ?? record, now);
};
