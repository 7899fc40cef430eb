import { randomUUID } from 'node:crypto';
import { signAppStoreJws, type TestChain } from './signing.ts';

/**
 * App Store data as Apple signs it (local-only: the App Store stand-in and the tests): a
 * transaction (`JWSTransaction`), its renewal info (`JWSRenewalInfo`) and the V2 notification that
 * carries them (`responseBodyV2`), each a JWS signed with a test chain shaped like Apple's.
 * Field names and values are Apple's (App Store Server Notifications V2, App Store Server API).
 */
export interface AppIdentity {
  bundleId: string;
  environment: 'Sandbox' | 'Production';
  appAppleId?: number;
}

export interface TransactionFields {
  productId: string;
  appAccountToken?: string;
  originalTransactionId?: string;
  transactionId?: string;
  /** Auto-renewable subscription (default when `expiresDate` is given) or a one-time purchase. */
  type?: 'Auto-Renewable Subscription' | 'Non-Consumable' | 'Consumable';
  purchaseDate?: number;
  originalPurchaseDate?: number;
  expiresDate?: number;
  revocationDate?: number;
  revocationReason?: number;
  /** Milliunits of `currency` (4990: 4.99). */
  price?: number;
  currency?: string;
  signedDate?: number;
}

export interface RenewalFields {
  autoRenewStatus?: 0 | 1;
  isInBillingRetryPeriod?: boolean;
  gracePeriodExpiresDate?: number;
  expirationIntent?: number;
  /** When the subscription's most recent purchase expires (its latest transaction's `expiresDate`). */
  renewalDate?: number;
}

const transactionIds = { next: 2_000_000_000_000_000 };
/** A fresh Apple-like transaction id (numeric string). */
export const transactionId = (): string => String(transactionIds.next++);

/** A signed transaction. */
export const signedTransaction = (chain: TestChain, app: AppIdentity, fields: TransactionFields): string => {
  const now = fields.signedDate ?? Date.now();
  const id = fields.transactionId ?? transactionId();
  return signAppStoreJws(chain, {
    transactionId: id,
    originalTransactionId: fields.originalTransactionId ?? id,
    bundleId: app.bundleId,
    productId: fields.productId,
    purchaseDate: fields.purchaseDate ?? now,
    originalPurchaseDate: fields.originalPurchaseDate ?? fields.purchaseDate ?? now,
    quantity: 1,
    type: fields.type ?? (fields.expiresDate ? 'Auto-Renewable Subscription' : 'Non-Consumable'),
    inAppOwnershipType: 'PURCHASED',
    signedDate: now,
    environment: app.environment,
    transactionReason: 'PURCHASE',
    storefront: 'USA',
    storefrontId: '143441',
    price: fields.price ?? 4990,
    currency: fields.currency ?? 'USD',
    ...(fields.appAccountToken ? { appAccountToken: fields.appAccountToken } : {}),
    ...(fields.expiresDate ? { expiresDate: fields.expiresDate } : {}),
    ...(fields.revocationDate
      ? { revocationDate: fields.revocationDate, revocationReason: fields.revocationReason ?? 0 }
      : {}),
  });
};

/** Signed renewal info of a subscription. */
export const signedRenewal = (
  chain: TestChain,
  app: AppIdentity,
  fields: RenewalFields & { productId: string; originalTransactionId: string; signedDate?: number },
): string =>
  signAppStoreJws(chain, {
    originalTransactionId: fields.originalTransactionId,
    autoRenewProductId: fields.productId,
    productId: fields.productId,
    autoRenewStatus: fields.autoRenewStatus ?? 1,
    isInBillingRetryPeriod: fields.isInBillingRetryPeriod ?? false,
    signedDate: fields.signedDate ?? Date.now(),
    environment: app.environment,
    ...(fields.gracePeriodExpiresDate ? { gracePeriodExpiresDate: fields.gracePeriodExpiresDate } : {}),
    ...(fields.expirationIntent ? { expirationIntent: fields.expirationIntent } : {}),
    ...(fields.renewalDate ? { renewalDate: fields.renewalDate } : {}),
  });

export interface NotificationFields {
  notificationType: string;
  subtype?: string;
  notificationUUID?: string;
  signedDate?: number;
  signedTransactionInfo?: string;
  signedRenewalInfo?: string;
}

/** A signed V2 notification (`{ signedPayload }` is the body Apple posts). */
export const signedNotification = (chain: TestChain, app: AppIdentity, fields: NotificationFields): string =>
  signAppStoreJws(chain, {
    notificationType: fields.notificationType,
    ...(fields.subtype ? { subtype: fields.subtype } : {}),
    notificationUUID: fields.notificationUUID ?? randomUUID(),
    version: '2.0',
    signedDate: fields.signedDate ?? Date.now(),
    data: {
      bundleId: app.bundleId,
      environment: app.environment,
      ...(app.appAppleId ? { appAppleId: app.appAppleId } : {}),
      ...(fields.signedTransactionInfo ? { signedTransactionInfo: fields.signedTransactionInfo } : {}),
      ...(fields.signedRenewalInfo ? { signedRenewalInfo: fields.signedRenewalInfo } : {}),
      status: 1,
    },
  });
