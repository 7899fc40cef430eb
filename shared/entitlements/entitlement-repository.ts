import { clock } from '../clock.ts';
import { GetCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';

/**
 * Entitlements: what an account may play, the one table of truth the paywall reads
 * (docs/payments.md). One item per account and target:
 * - a subscription to a creator: PK `ACCOUNT#<account>`, SK `ENTITLEMENT#<creator>#SUB`;
 * - a purchase of one item:     PK `ACCOUNT#<account>`, SK `ENTITLEMENT#<creator>#PPV#<content>`.
 * So one Query (`ENTITLEMENT#<creator>#`) answers everything an account holds of one creator, and
 * one (`ENTITLEMENT#`) everything it holds. An app store's subscription that still grants or may
 * (`active`, `past_due`) is also in GSI1 by the day its access ends (`renewalIndex`), so the store
 * reconcile finds those close to expiry with one Query per day, never a Scan. This module is the
 * only place these keys and attribute names appear. Every write is `applyEntitlement`: a conditional put that only moves an
 * item forward in provider time (`observed_at`), so a slow writer carrying an older read of the
 * provider's state can never overwrite a newer one.
 */

export {
  ENTITLEMENT_KINDS,
  ENTITLEMENT_SOURCES,
  ENTITLEMENT_STATUSES,
  type EntitlementKind,
  type EntitlementSource,
  type EntitlementStatus,
} from './model.ts';
import type { EntitlementKind, EntitlementSource, EntitlementStatus } from './model.ts';

/** The provider's ids behind an entitlement (what a support engineer looks up in Stripe). */
export interface ProviderIds {
  customer_id?: string;
  subscription_id?: string;
  payment_intent_id?: string;
  charge_id?: string;
  /** App stores: the store's product id (shared/stores/catalogue.ts). */
  product_id?: string;
  /** Apple: the subscription's (or purchase's) first transaction, stable across renewals. */
  original_transaction_id?: string;
  /** Apple: the latest transaction applied. */
  transaction_id?: string;
  /** Google Play: the purchase token (stable across renewals) and the latest order id. */
  purchase_token?: string;
  order_id?: string;
}

export interface EntitlementRecord {
  account_id: string;
  kind: EntitlementKind;
  creator_id: string;
  /** The purchased item (`null` for a subscription). */
  content_id: string | null;
  source: EntitlementSource;
  status: EntitlementStatus;
  /** Paid up until then (ISO 8601); `null`: no end (a purchase). */
  valid_until: string | null;
  /** After a failed renewal: access holds until then (ISO 8601), else `null`. */
  grace_until: string | null;
  cancel_at_period_end: boolean;
  /** When the entitlement first granted access (ISO 8601). */
  started_at: string;
  /** When the provider state this record reflects was read (epoch ms): writes only move it forward. */
  observed_at: number;
  provider: ProviderIds;
  /** What the holder pays (absent on records written before prices were kept, and on grants). */
  price?: EntitlementPrice;
}

/**
 * The price of an entitlement, in minor units of `currency` (cents): a subscription's plan per
 * `interval`, a purchase's charge; `platform_fee` is the platform's share of `amount`. The
 * analytics payment facts (shared/analytics/payment-facts.ts) carry it.
 */
export interface EntitlementPrice {
  amount: number;
  currency: string;
  /** A subscription's billing interval; `null` for a purchase. */
  interval: 'day' | 'week' | 'month' | 'year' | null;
  platform_fee: number;
}

/** What an entitlement is for: a creator's subscription or one item. */
export type Target =
  | { kind: 'subscription'; creatorId: string }
  | { kind: 'purchase'; creatorId: string; contentId: string };

const pk = (accountId: string) => `ACCOUNT#${accountId}`;
const sk = (target: Target) =>
  target.kind === 'subscription'
    ? `ENTITLEMENT#${target.creatorId}#SUB`
    : `ENTITLEMENT#${target.creatorId}#PPV#${target.contentId}`;

/** The key of one entitlement item (tests and the seed build keys through this). */
export const entitlementKey = (accountId: string, target: Target) => ({ PK: pk(accountId), SK: sk(target) });

const targetOf = (record: Pick<EntitlementRecord, 'kind' | 'creator_id' | 'content_id'>): Target =>
  record.kind === 'subscription'
    ? { kind: 'subscription', creatorId: record.creator_id }
    : { kind: 'purchase', creatorId: record.creator_id, contentId: record.content_id ?? '' };

/** The item of one entitlement record (the seed writes these). */
export const entitlementItem = (record: EntitlementRecord) => ({
  ...entitlementKey(record.account_id, targetOf(record)),
  entity: 'entitlement',
  ...record,
});

/** The fields that make an entitlement's state: a reconcile rewrites a record that differs in one. */
const STATE_FIELDS: ReadonlyArray<keyof EntitlementRecord> = [
  'status',
  'valid_until',
  'grace_until',
  'cancel_at_period_end',
];

/** Does `stored` say something else than `now` (or is there none)? What both reconciles count as drift. */
export const differsInState = (stored: EntitlementRecord | undefined, now: EntitlementRecord): boolean =>
  !stored || STATE_FIELDS.some((field) => stored[field] !== now[field]);

/**
 * GSI1 of a store subscription close to expiry: GSI1PK `STORE_RENEWAL#<yyyy-mm-dd>` (the UTC day
 * its access ends: `valid_until`, or `grace_until` when later), GSI1SK `<that instant>#<account>#<creator>`.
 * Only `active` and `past_due` store subscriptions are in it: Stripe's reconcile lists Stripe's
 * subscriptions itself, and an expired, refunded or revoked one ends there (a new purchase
 * arrives as a notification).
 */
const renewalIndex = (record: EntitlementRecord): { GSI1PK: string; GSI1SK: string } | undefined => {
  if (record.source === 'stripe' || record.kind !== 'subscription') return undefined;
  if (record.status !== 'active' && record.status !== 'past_due') return undefined;
  const ends = [record.valid_until, record.grace_until]
    .filter((iso): iso is string => iso !== null)
    .sort()
    .at(-1);
  if (!ends) return undefined;
  return {
    GSI1PK: `STORE_RENEWAL#${ends.slice(0, 10)}`,
    GSI1SK: `${ends}#${record.account_id}#${record.creator_id}`,
  };
};

/**
 * The store subscriptions whose access ends in [from, to] (`active` or `past_due` when written):
 * one Query on GSI1 per UTC day of the window, paged through.
 */
export const storeRenewalsDue = async (from: Date, to: Date): Promise<EntitlementRecord[]> => {
  const days: string[] = [];
  for (let day = Date.parse(from.toISOString().slice(0, 10)); day <= to.getTime(); day += 86_400_000)
    days.push(new Date(day).toISOString().slice(0, 10));
  const pages = await Promise.all(
    days.map((day) =>
      queryAll({
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': `STORE_RENEWAL#${day}`,
          ':from': from.toISOString(),
          // Every key of the last instant sorts below `<instant>$` ('$' follows '#').
          ':to': `${to.toISOString()}$`,
        },
      }),
    ),
  );
  return pages.flat().map((item) => recordOf<EntitlementRecord>(item));
};

/**
 * Does `e` let its holder play at `now`? Active and paid up (`valid_until` null or ahead), or
 * `past_due` within its grace. Nothing else grants, whatever arrives later: a subscription whose
 * renewal failed stops granting when its grace ends even if no event ever comes.
 */
export const grants = (e: EntitlementRecord | undefined, now: Date): boolean => {
  if (!e) return false;
  const ahead = (iso: string | null) => iso !== null && Date.parse(iso) > now.getTime();
  if (e.status === 'active') return e.valid_until === null || ahead(e.valid_until);
  if (e.status === 'past_due') return ahead(e.valid_until) || ahead(e.grace_until);
  return false;
};

/** One entitlement, if any. */
export const getEntitlement = async (
  accountId: string,
  target: Target,
): Promise<EntitlementRecord | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: entitlementKey(accountId, target) }),
  );
  return Item ? recordOf<EntitlementRecord>(Item) : undefined;
};

/** Everything `accountId` holds, or (with `creatorId`) holds of one creator: one Query. */
export const entitlementsOf = async (accountId: string, creatorId?: string): Promise<EntitlementRecord[]> =>
  (
    await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: {
        ':pk': pk(accountId),
        ':prefix': creatorId === undefined ? 'ENTITLEMENT#' : `ENTITLEMENT#${creatorId}#`,
      },
    })
  ).map((item) => recordOf<EntitlementRecord>(item));

/**
 * The provider's object an entitlement's state is read from: a Stripe subscription or payment
 * intent, an Apple original transaction, a Google purchase token (undefined: a grant of no
 * provider's). Its field in `provider` and its id.
 */
const providerObject = (record: EntitlementRecord): [keyof ProviderIds, string] | undefined => {
  const field: keyof ProviderIds =
    record.source === 'apple'
      ? 'original_transaction_id'
      : record.source === 'google'
        ? 'purchase_token'
        : record.kind === 'subscription'
          ? 'subscription_id'
          : 'payment_intent_id';
  const id = record.provider[field];
  return id ? [field, id] : undefined;
};

/**
 * Writes `record` as the entitlement's state unless the stored one was observed later (an equal
 * observation rewrites the same state): one conditional UpdateItem, keeping the first
 * `started_at`, and moving the item in (or out of) the store renewal index. A record that is not
 * `active` and granting (one that does not grant, or a `past_due` one in its grace) never replaces
 * a stored one that grants at `now` and was read from another provider object (another source, or
 * another subscription, transaction or purchase token of the same one): an ended or failing first
 * subscription (the daily reconcile lists it, a late event re-reads it) must not take away, or put
 * on a grace clock, the access a second one pays for. False when not written. The table stream
 * carries the before and after images, from which the domain events are made
 * (shared/events/changes.ts).
 */
export const applyEntitlement = async (record: EntitlementRecord, now = clock.now()): Promise<boolean> => {
  const { started_at, ...rest } = record;
  const index = renewalIndex(record);
  const fields = Object.entries({ ...rest, entity: 'entitlement', ...index });
  const object = record.status === 'active' && grants(record, now) ? undefined : providerObject(record);
  const keepOther: { condition: string; names: Record<string, string>; values: Record<string, string> } =
    object
      ? {
          condition:
            ' AND (#prov.#obj = :obj OR NOT ((#st = :active AND (attribute_not_exists(#vu) OR attribute_type(#vu, :null) OR #vu > :now))' +
            ' OR (#st = :past_due AND (#vu > :now OR #gu > :now))))',
          names: {
            '#prov': 'provider',
            '#obj': object[0],
            '#st': 'status',
            '#vu': 'valid_until',
            '#gu': 'grace_until',
          },
          values: {
            ':obj': object[1],
            ':active': 'active',
            ':past_due': 'past_due',
            ':null': 'NULL',
            ':now': now.toISOString(),
          },
        }
      : { condition: '', names: {}, values: {} };
  const { written } = await writeIf({
    Update: {
      Key: entitlementKey(record.account_id, targetOf(record)),
      UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}, started_at = if_not_exists(started_at, :started)${index ? '' : ' REMOVE GSI1PK, GSI1SK'}`,
      ConditionExpression: `attribute_not_exists(PK) OR (observed_at <= :at${keepOther.condition})`,
      ExpressionAttributeNames: {
        ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ...keepOther.names,
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
        ':started': started_at,
        ':at': record.observed_at,
        ...keepOther.values,
      },
    },
  });
  return written;
};
