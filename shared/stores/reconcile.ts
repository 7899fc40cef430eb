import { backoff } from '../backoff.ts';
import { APIException } from '@apple/app-store-server-library';
import {
  applyEntitlement,
  differsInState,
  type EntitlementRecord,
  storeRenewalsDue,
} from '../entitlements/entitlement-repository.ts';
import { applicationFeePercent } from '../payments/settings.ts';
import { appleEntitlement } from './apple.ts';
import { subscriptionStatus } from './app-store-api.ts';
import { appleVerifier } from './apple-verifier.ts';
import { readPlayPurchase } from './google-sync.ts';
import { UnknownPurchaseError } from './play-client.ts';
import { STORE_RECONCILE } from './reconcile-window.ts';

/**
 * The store reconcile (docs/payments.md, "App stores: reconcile"): what a lost or late store
 * notification left wrong, repaired from the store itself. Every app-store subscription whose
 * access ends in [now − `lookbackHours`, now + `horizonHours`] (found through the renewal index,
 * `storeRenewalsDue`: one Query per day, never a Scan) is read from its store, Apple's App Store
 * Server API `getAllSubscriptionStatuses` (the signed state verified as a notification's) or
 * Google's `purchases.subscriptionsv2.get`, and applied through the notification path's own
 * write (`applyEntitlement`: conditional, forward-only in the store's time, idempotent).
 *
 * A store that cannot answer changes nothing: the call is retried (`attempts`, with backoff),
 * then the entitlement is left as it is and counted in `errors` (its key in `failures`), so an
 * outage never takes access away; the next run checks it again.
 */

export interface StoreReconcileReport {
  /** Store subscriptions read from their store. */
  checked: number;
  /** Entitlements the store's state changed (drift: a notification lost or not yet delivered). */
  corrected: number;
  /** Entitlements the store could not be asked about (left unchanged). */
  errors: number;
  /** The first 20 of those, for the log. */
  failures: Array<{ account_id: string; creator_id: string; source: string; error: string }>;
}

/** Is it worth asking again (the store or the network, not the request)? */
const retryable = (error: unknown): boolean => {
  if (error instanceof UnknownPurchaseError) return false;
  if (error instanceof APIException) return error.httpStatusCode >= 500 || error.httpStatusCode === 429;
  return true;
};

const withRetries = async <T>(call: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= STORE_RECONCILE.attempts || !retryable(error)) throw error;
      await backoff(attempt, 100);
    }
  }
};

/** What the App Store says of `stored`'s subscription now, verified as a notification is. */
const appleState = async (stored: EntitlementRecord, now: Date): Promise<EntitlementRecord> => {
  const id = stored.provider.original_transaction_id;
  if (!id) throw new Error('no original_transaction_id');
  const item = await withRetries(() => subscriptionStatus(id));
  if (!item?.signedTransactionInfo) throw new Error(`the App Store has no status for ${id}`);
  const verifier = await appleVerifier();
  const transaction = await verifier.verifyAndDecodeTransaction(item.signedTransactionInfo);
  const renewal = item.signedRenewalInfo
    ? await verifier.verifyAndDecodeRenewalInfo(item.signedRenewalInfo)
    : undefined;
  return appleEntitlement(
    { transaction, renewal, signedAt: transaction.signedDate ?? now.getTime() },
    { accountId: stored.account_id, creatorId: stored.creator_id },
    applicationFeePercent(),
  );
};

/** Reads one entitlement's store and applies its state; true when that changed the entitlement. */
const check = async (stored: EntitlementRecord, now: Date): Promise<boolean> => {
  if (stored.source === 'apple') {
    const record = await appleState(stored, now);
    return differsInState(stored, record) && (await applyEntitlement(record, now));
  }
  const token = stored.provider.purchase_token;
  if (!token) throw new Error('no purchase_token');
  const state = await withRetries(() =>
    readPlayPurchase(
      token,
      { subscription: true, productId: stored.provider.product_id },
      {},
      stored.account_id,
    ),
  );
  if (!state) throw new Error(`purchase ${token} is not for a product of this platform`);
  const changed =
    differsInState(stored, state.record) && (await applyEntitlement(state.record, state.observedAt));
  await state.acknowledge?.();
  return changed;
};

const describe = (error: unknown): string =>
  error instanceof APIException
    ? `App Store Server API ${error.httpStatusCode} ${error.apiError ?? ''} ${error.errorMessage ?? ''}`.trim()
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : String(error);

/** One run over the store subscriptions close to expiry at `now`. */
export const reconcileStores = async (now: Date): Promise<StoreReconcileReport> => {
  const due = await storeRenewalsDue(
    new Date(now.getTime() - STORE_RECONCILE.lookbackHours * 3_600_000),
    new Date(now.getTime() + STORE_RECONCILE.horizonHours * 3_600_000),
  );
  const report: StoreReconcileReport = { checked: 0, corrected: 0, errors: 0, failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const stored = due[next++]!;
      try {
        if (await check(stored, now)) report.corrected++;
        report.checked++;
      } catch (error) {
        report.errors++;
        if (report.failures.length < 20)
          report.failures.push({
            account_id: stored.account_id,
            creator_id: stored.creator_id,
            source: stored.source,
            error: describe(error),
          });
      }
    }
  };
  await Promise.all(Array.from({ length: STORE_RECONCILE.parallel }, worker));
  return report;
};
