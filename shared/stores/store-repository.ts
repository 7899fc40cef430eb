import { GetCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { putIfAbsent } from '../db/transaction.ts';

/**
 * The app stores' own items (docs/payments.md, "App stores"); this module owns their keys:
 * - a processed store notification: PK `STORE_NOTIFICATION#<store>#<id>` (Apple's
 *   `notificationUUID`, Pub/Sub's `messageId`), SK `NOTIFICATION`, expiring after 30 days (Apple
 *   retries for 3 days, Pub/Sub for 7);
 * - a Google Play purchase linked to an account: PK `PLAY_PURCHASE#<purchase token>`,
 *   SK `LINK` → account_id (the app links it through `POST /billing/google/purchases`; the
 *   obfuscated account id of the purchase says the same for purchases made with it).
 */
export type Store = 'apple' | 'google';

const notificationKey = (store: Store, id: string) => ({
  PK: `STORE_NOTIFICATION#${store}#${id}`,
  SK: 'NOTIFICATION',
});
const purchaseKey = (token: string) => ({ PK: `PLAY_PURCHASE#${token}`, SK: 'LINK' });
const KEEP_DAYS = 30;

/** Has this store notification been processed? */
export const notificationProcessed = async (store: Store, id: string): Promise<boolean> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: notificationKey(store, id), ProjectionExpression: 'PK' }),
  );
  return Item !== undefined;
};

/**
 * Marks a store notification processed, once (a conditional put): false when it already was (a
 * parallel delivery finished first). Written after its effects, so a crash in between makes the
 * store's retry redo them (they are idempotent: the signed state is applied again).
 */
export const markNotificationProcessed = async (
  store: Store,
  notification: { id: string; type: string },
  now: Date,
): Promise<boolean> =>
  putIfAbsent({
    ...notificationKey(store, notification.id),
    entity: 'store_notification',
    store,
    type: notification.type,
    processed_at: now.toISOString(),
    expires_at_epoch: Math.floor(now.getTime() / 1000) + KEEP_DAYS * 86_400,
  });

/** The account a Google Play purchase token was linked to, if any. */
export const linkedAccountOf = async (purchaseToken: string): Promise<string | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: purchaseKey(purchaseToken) }));
  return Item?.account_id ? String(Item.account_id) : undefined;
};

/** The product a linked Google Play purchase token is for, if linked. */
export const linkedProductOf = async (purchaseToken: string): Promise<string | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: purchaseKey(purchaseToken) }));
  return Item?.product_id ? String(Item.product_id) : undefined;
};

/**
 * Links a purchase token to `accountId` unless it is linked already; answers the account it is
 * linked to (the first link wins: a token replayed by another account does not move the purchase).
 */
export const linkPurchase = async (
  purchaseToken: string,
  accountId: string,
  productId: string,
  now: Date,
): Promise<string> => {
  const written = await putIfAbsent({
    ...purchaseKey(purchaseToken),
    entity: 'play_purchase',
    account_id: accountId,
    product_id: productId,
    linked_at: now.toISOString(),
  });
  return written ? accountId : ((await linkedAccountOf(purchaseToken)) ?? accountId);
};
