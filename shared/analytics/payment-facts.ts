import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EntitlementRecord } from '../entitlements/entitlement-repository.ts';
import { eventsOfRecord } from '../events/changes.ts';
import { logger, recordMetric } from '../observability/index.ts';
import { accountKeyOf } from './pseudonym.ts';
import { type AnalyticsRecord, getSink } from './sink.ts';

/**
 * Payment facts (docs/analytics.md, "Payment facts"): one analytics record of family `payment`
 * per money event of an entitlement, made by the projector from the table stream with the same
 * transitions as the domain events (shared/events/changes.ts), whose id each fact takes as its
 * `event_id`: a replayed stream record writes a fact with the same id, and the queries keep one
 * row per `event_id`. Money is in minor units of `currency` (cents), signed: what the event moved
 * (a refund or dispute is negative; a cancellation or expiry moves nothing). The paying account
 * is its keyed pseudonym, as in every analytics row (shared/analytics/pseudonym.ts).
 */
export const PAYMENT_FACT_TYPES = {
  'subscription.created': 'subscription.started',
  'subscription.renewed': 'subscription.renewed',
  'subscription.cancelled': 'subscription.cancelled',
  'subscription.expired': 'subscription.expired',
  'purchase.completed': 'purchase.completed',
  'purchase.refunded': 'purchase.refunded',
} as const;

/** The fact columns (the Glue table and the DuckDB view are built from this list). */
export const PAYMENT_COLUMNS = {
  event_id: 'string',
  type: 'string',
  creator_id: 'string',
  account_id: 'string',
  kind: 'string',
  content_id: 'string',
  source: 'string',
  currency: 'string',
  amount: 'bigint',
  platform_fee: 'bigint',
  net: 'bigint',
  plan_amount: 'bigint',
  billing_interval: 'string',
  monthly_amount: 'double',
  occurred_at: 'string',
  occurred_at_ms: 'bigint',
  received_at_ms: 'bigint',
} as const;

/** Months per billing interval (a yearly plan's monthly amount is its price / 12). */
const MONTHS = { day: 12 / 365, week: 12 / 52, month: 1, year: 12 } as const;

const imageOf = (image: Record<string, LambdaAttributeValue> | undefined) =>
  image ? (unmarshall(image as Record<string, AttributeValue>) as EntitlementRecord) : undefined;

/**
 * The payment facts of one stream record (none for anything but an entitlement's money event).
 * `account_id` is the account's pseudonym (the key is read only when there is a fact).
 */
export const paymentFactsOf = async (record: DynamoDBRecord, now: Date): Promise<AnalyticsRecord[]> => {
  const after = imageOf(record.dynamodb?.NewImage);
  if (!after || (after as { entity?: unknown }).entity !== 'entitlement') return [];
  const events = eventsOfRecord(record).flatMap((event) => {
    const mapped = PAYMENT_FACT_TYPES[event.type as keyof typeof PAYMENT_FACT_TYPES];
    return mapped ? [{ event, mapped }] : [];
  });
  if (events.length === 0) return [];
  const account_id = await accountKeyOf(after.account_id);
  const price = after.price ?? { amount: 0, currency: '', interval: null, platform_fee: 0 };
  return events.map(({ event, mapped }): AnalyticsRecord => {
    const type = mapped === 'purchase.refunded' && after.status === 'disputed' ? 'purchase.disputed' : mapped;
    const sign = type === 'purchase.refunded' || type === 'purchase.disputed' ? -1 : 1;
    const moves = type !== 'subscription.cancelled' && type !== 'subscription.expired';
    const amount = moves ? sign * price.amount : 0;
    const fee = moves ? sign * price.platform_fee : 0;
    const occurred = Date.parse(event.time);
    return {
      event_id: event.id,
      family: 'payment',
      type,
      creator_id: after.creator_id,
      account_id,
      kind: after.kind,
      content_id: after.content_id,
      source: after.source,
      currency: price.currency,
      amount,
      platform_fee: fee,
      net: amount - fee,
      plan_amount: price.amount,
      billing_interval: price.interval,
      monthly_amount: price.interval ? price.amount / MONTHS[price.interval] : null,
      occurred_at: event.time,
      occurred_at_ms: occurred,
      received_at: now.toISOString(),
      received_at_ms: now.getTime(),
      client_ts_ms: occurred,
    };
  });
};

/**
 * The projector's hook: writes the payment facts of one stream record. Unlike the title
 * dimension a failure throws, so the stream retries the batch (the fact ids repeat, the queries
 * keep one row per id): a lost fact would be lost revenue in the report.
 */
export const exportPaymentFacts = async (record: DynamoDBRecord, now: Date): Promise<void> => {
  const facts = await paymentFactsOf(record, now);
  if (facts.length === 0) return;
  try {
    await (await getSink()).put(facts);
  } catch (error) {
    logger.warn('Payment facts not exported', { error: error instanceof Error ? error.name : 'unknown' });
    recordMetric('payment_fact_export_failures');
    throw error;
  }
};
