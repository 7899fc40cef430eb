import { GetCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { putIfAbsent } from '../db/transaction.ts';

/**
 * The payment side's own items (docs/payments.md, "Data model"); this module owns their keys:
 * - an account's Stripe customer: PK `ACCOUNT#<account>`, SK `STRIPE_CUSTOMER`;
 * - a processed Stripe event: PK `STRIPE_EVENT#<event id>`, SK `EVENT`, expiring after 30 days
 *   (Stripe retries a delivery for 3 days; a replay older than the signature tolerance is refused
 *   anyway).
 */
const customerKey = (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: 'STRIPE_CUSTOMER' });
const eventKey = (eventId: string) => ({ PK: `STRIPE_EVENT#${eventId}`, SK: 'EVENT' });
const EVENT_DAYS = 30;

/** The Stripe customer of an account, if one was made. */
export const getCustomerId = async (accountId: string): Promise<string | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: customerKey(accountId) }));
  return Item ? String(Item.customer_id) : undefined;
};

/**
 * Records the account's customer unless one is recorded; answers the recorded one (the first
 * writer's: two parallel first checkouts end with one customer).
 */
export const recordCustomer = async (accountId: string, customerId: string, now: Date): Promise<string> => {
  const written = await putIfAbsent({
    ...customerKey(accountId),
    entity: 'stripe_customer',
    account_id: accountId,
    customer_id: customerId,
    created_at: now.toISOString(),
  });
  return written ? customerId : ((await getCustomerId(accountId)) ?? customerId);
};

/** Has this Stripe event been processed? */
export const eventProcessed = async (eventId: string): Promise<boolean> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: eventKey(eventId), ProjectionExpression: 'PK' }),
  );
  return Item !== undefined;
};

/**
 * Marks a Stripe event processed, once: false when it already was (a parallel delivery finished
 * first). Written after the event's effects, so a crash in between makes Stripe's retry redo them
 * (they are idempotent: the current state is applied, docs/payments.md).
 */
export const markEventProcessed = async (event: { id: string; type: string }, now: Date): Promise<boolean> =>
  putIfAbsent({
    ...eventKey(event.id),
    entity: 'stripe_event',
    type: event.type,
    processed_at: now.toISOString(),
    expires_at_epoch: Math.floor(now.getTime() / 1000) + EVENT_DAYS * 86_400,
  });
