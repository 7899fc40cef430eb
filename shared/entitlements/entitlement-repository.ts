import { isDeepStrictEqual } from 'node:util';
import { clock } from '../clock.ts';
import { GetCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';

/**
 * Entitlements: what an account may play, the one table of truth the paywall reads
 * (docs/payments.md). One entitlement item per account and target, read with one GetItem:
 * - a subscription to a creator: PK `ACCOUNT#<account>`, SK `ENTITLEMENT#<creator>#SUB`;
 * - a purchase of one item:     PK `ACCOUNT#<account>`, SK `ENTITLEMENT#<creator>#PPV#<content>`.
 * So one Query (`ENTITLEMENT#<creator>#`) answers everything an account holds of one creator, and
 * one (`ENTITLEMENT#`) everything it holds.
 *
 * Beside it, one item per provider object behind the target (a Stripe subscription or payment
 * intent, an Apple original transaction, a Google purchase token): SK
 * `ENTSRC#<creator>#SUB#<source>#<object id>` or `ENTSRC#<creator>#PPV#<content>#<source>#<object id>`
 * (`grant` for no provider's), `entity` `entitlement_source`, the same fields, that object's latest
 * state. The entitlement item is a function of them (`shownState`): of the objects that grant,
 * a paid-up one before one in a failed renewal's grace, then the one reaching furthest; none
 * granting, the latest observed. So the end of the object shown leaves another that still pays
 * at once. An app store's subscription object that still grants or may (`active`, `past_due`) is
 * in GSI1 by the day its access ends (`renewalIndex`), shown or not, so the store reconcile finds
 * those close to expiry with one Query per day, never a Scan.
 *
 * This module is the only place these keys and attribute names appear. Every write is
 * `applyEntitlement`: a conditional write of the object's item that only moves it forward in
 * provider time (`observed_at`), so a slow writer carrying an older read of the provider's state
 * can never overwrite a newer one; then the entitlement item recomputed and written on its
 * `version` (optimistic: a concurrent writer makes it read again).
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
 * GSI1 of a store subscription's object item (never of the entitlement item: the object is
 * re-read whether it is shown or not) close to expiry: GSI1PK `STORE_RENEWAL#<yyyy-mm-dd>` (the UTC day
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
 * The store subscriptions (their objects' items) whose access ends in [from, to] (`active` or
 * `past_due` when written): one Query on GSI1 per UTC day of the window, paged through.
 * Entitlement items written before the object items existed may still be in it until their
 * next write: the same records, each read from its store the same way.
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
  return pages.flat().map(entitlementOf);
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

/** The record an entitlement item holds (its `version` counts the item's writes: not the record's). */
const entitlementOf = (item: Record<string, unknown>): EntitlementRecord => {
  const { version: _, ...record } = recordOf<EntitlementRecord & { version?: unknown }>(item);
  return record;
};

/** One entitlement, if any. */
export const getEntitlement = async (
  accountId: string,
  target: Target,
): Promise<EntitlementRecord | undefined> => {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: entitlementKey(accountId, target) }),
  );
  return Item ? entitlementOf(Item) : undefined;
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
  ).map(entitlementOf);

/**
 * The provider's object an entitlement's state is read from, as one key part: its source and a
 * Stripe subscription or payment intent, an Apple original transaction or a Google purchase
 * token; `grant` for a grant of no provider's (the demo viewer's seeded subscription).
 */
const objectOf = (record: EntitlementRecord): string => {
  const field: keyof ProviderIds =
    record.source === 'apple'
      ? 'original_transaction_id'
      : record.source === 'google'
        ? 'purchase_token'
        : record.kind === 'subscription'
          ? 'subscription_id'
          : 'payment_intent_id';
  return `${record.source}#${record.provider[field] ?? 'grant'}`;
};

/** The prefix of a target's object items (`ENTSRC#`: no `ENTITLEMENT#` Query reads them). */
const objectPrefix = (target: Target) =>
  target.kind === 'subscription'
    ? `ENTSRC#${target.creatorId}#SUB#`
    : `ENTSRC#${target.creatorId}#PPV#${target.contentId}#`;

/**
 * The `entity` of an object item: neither an entitlement nor a source of events, facts or counts
 * (the account purge closes Stripe's subscriptions from these too).
 */
export const ENTITLEMENT_OBJECT_ENTITY = 'entitlement_source';

/** When `e`'s access ends (ms): its paid-up time, or a past_due's grace if later; no end for null. */
const accessEnd = (e: EntitlementRecord): number => {
  if (e.valid_until === null) return Number.POSITIVE_INFINITY;
  const grace =
    e.status === 'past_due' && e.grace_until ? Date.parse(e.grace_until) : Number.NEGATIVE_INFINITY;
  return Math.max(Date.parse(e.valid_until), grace);
};

/**
 * The state to show of a target's objects at `now`: of those that grant, an `active` one before
 * one that grants only in a failed renewal's grace (`past_due`: another object's failing renewal
 * never puts a paid-up one on a grace clock, nor shows "payment failed" to someone who pays),
 * then the one whose access reaches furthest (so no other of its kind can outlast it); none
 * granting, the latest observed. Ties: the latest observed, then the object's key, so every
 * writer computes the same from the same items.
 */
const shownState = (objects: readonly EntitlementRecord[], now: Date): EntitlementRecord | undefined => {
  const rank = (e: EntitlementRecord): [number, number, number, string] => {
    const granting = grants(e, now);
    return [
      granting ? (e.status === 'active' ? 2 : 1) : 0,
      granting ? accessEnd(e) : 0,
      e.observed_at,
      objectOf(e),
    ];
  };
  const before = (a: ReturnType<typeof rank>, b: ReturnType<typeof rank>) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
    return false;
  };
  return objects.reduce<EntitlementRecord | undefined>(
    (best, e) => (!best || before(rank(e), rank(best)) ? e : best),
    undefined,
  );
};

/** The sort key of `record`'s provider object's item: one per account, target and provider object. */
export const objectSortKey = (record: EntitlementRecord): string =>
  `${objectPrefix(targetOf(record))}${objectOf(record)}`;

/** The key of `record`'s provider object's item. */
const objectKey = (record: EntitlementRecord) => ({ PK: pk(record.account_id), SK: objectSortKey(record) });

/**
 * `stored` (an entitlement item) when it was stored before the object items existed: no object
 * item is its object's, so it stands for that object.
 */
const unmigratedOf = (
  stored: EntitlementRecord | undefined,
  objects: readonly EntitlementRecord[],
): EntitlementRecord | undefined =>
  stored && !objects.some((o) => objectOf(o) === objectOf(stored)) ? stored : undefined;

/** The items of a target's provider objects (strongly consistent: a writer reads them after its own write). */
const objectItems = async (accountId: string, target: Target): Promise<EntitlementRecord[]> =>
  (
    await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': pk(accountId), ':prefix': objectPrefix(target) },
      ConsistentRead: true,
    })
  ).map((object) => recordOf<EntitlementRecord>(object));

/**
 * Every provider object behind a target, each in its latest state, whether shown or not (a web
 * subscription while an App Store one is shown): the object items, and an entitlement item
 * stored before they existed as its own object's. One GetItem and one Query, side by side.
 */
export const entitlementObjects = async (accountId: string, target: Target): Promise<EntitlementRecord[]> => {
  const [stored, objects] = await Promise.all([
    getEntitlement(accountId, target),
    objectItems(accountId, target),
  ]);
  const unmigrated = unmigratedOf(stored, objects);
  return unmigrated ? [...objects, unmigrated] : objects;
};

/**
 * Is what the table holds out of step with `record`, a provider's current state of one object?
 * Its object's item says another state (or there is none; an entitlement item stored before the
 * object items stands for its own object), or the entitlement item is missing, or shows this
 * object in another state. An entitlement item showing another object is that object's business:
 * so a reconcile rewrites nothing for an ended subscription behind a paid one, every day. Two
 * GetItems side by side.
 */
export const entitlementOutOfStep = async (record: EntitlementRecord): Promise<boolean> => {
  const [{ Item }, shown] = await Promise.all([
    db.send(new GetCommand({ TableName: tableName(), Key: objectKey(record) })),
    getEntitlement(record.account_id, targetOf(record)),
  ]);
  const showsThis = shown !== undefined && objectOf(shown) === objectOf(record);
  const own = Item ? recordOf<EntitlementRecord>(Item) : showsThis ? shown : undefined;
  return differsInState(own, record) || !shown || (showsThis && differsInState(shown, record));
};

/** Attempts of the entitlement item's optimistic write before the caller's retry takes over. */
const SHOW_ATTEMPTS = 5;

/**
 * Rewrites the target's entitlement item from its objects' items (`shownState`) unless it already
 * says that. Reads the item (consistently: its `version`), then Queries the objects' items
 * (consistently, after the read: an object written before another writer's entitlement write is
 * then always seen), then writes conditionally on the version read; a concurrent writer moved it:
 * again from the item that writer left, up to SHOW_ATTEMPTS, then an error (the caller's retry or
 * dead-letter path). An item stored before the objects had items (no `version`) stands for its own
 * object, and that object's item is made from it (no backfill), so the first write of another
 * object drops nothing already granted.
 */
const showTarget = async (accountId: string, target: Target, now: Date): Promise<boolean> => {
  const Key = entitlementKey(accountId, target);
  let item = (await db.send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item;
  for (let attempt = 1; attempt <= SHOW_ATTEMPTS; attempt++) {
    const objects = await objectItems(accountId, target);
    const stored = item ? entitlementOf(item) : undefined;
    // Stored before the object items (no item of its object): its object's item is made from it
    // first, so it stays one of the states to show (and in the renewal index) once the
    // entitlement item says another's.
    const unmigrated = unmigratedOf(stored, objects);
    if (unmigrated) await writeObject(unmigrated, 'absent');
    const shown = shownState(unmigrated ? [...objects, unmigrated] : objects, now);
    if (!shown) return false;
    const { started_at, ...fields } = shown;
    const same =
      stored !== undefined &&
      item?.GSI1PK === undefined &&
      isDeepStrictEqual({ ...stored, started_at: undefined }, { ...fields, started_at: undefined });
    if (same) return false;
    // Whatever the item holds that the state shown does not (a price, old renewal-index keys) goes.
    const stale = Object.keys(item ?? {}).filter(
      (name) => !(name in fields) && !['PK', 'SK', 'entity', 'version', 'started_at'].includes(name),
    );
    const set = Object.entries({ ...fields, entity: 'entitlement' });
    const version = typeof item?.version === 'number' ? item.version : undefined;
    const outcome = await writeIf({
      Update: {
        Key,
        UpdateExpression:
          `SET ${set.map((_, i) => `#f${i} = :f${i}`).join(', ')}, started_at = if_not_exists(started_at, :started), #version = :next` +
          (stale.length > 0 ? ` REMOVE ${stale.map((_, i) => `#r${i}`).join(', ')}` : ''),
        ConditionExpression: !item
          ? 'attribute_not_exists(PK)'
          : version === undefined
            ? 'attribute_exists(PK) AND attribute_not_exists(#version)'
            : '#version = :read',
        ExpressionAttributeNames: {
          ...Object.fromEntries(set.map(([name], i) => [`#f${i}`, name])),
          ...Object.fromEntries(stale.map((name, i) => [`#r${i}`, name])),
          '#version': 'version',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(set.map(([, value], i) => [`:f${i}`, value])),
          ':started': started_at,
          ':next': (version ?? 0) + 1,
          ...(version === undefined ? {} : { ':read': version }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
    if (outcome.written) return true;
    item = outcome.item;
  }
  throw new Error(
    `The entitlement ${Key.PK} ${Key.SK} kept moving under ${SHOW_ATTEMPTS} writes: try again (a retry recomputes it)`,
  );
};

/**
 * Writes `record` into its provider object's item: `forward`, unless the item holds a later
 * observation; `absent`, only when there is no item yet (an entitlement item stored before the
 * object items, kept as its object's). Keeps the item's first `started_at`, and moves it in (or
 * out of) the store renewal index. False when not written.
 */
const writeObject = async (record: EntitlementRecord, when: 'forward' | 'absent'): Promise<boolean> => {
  const { started_at, version: _, ...rest } = record as EntitlementRecord & { version?: unknown };
  const index = renewalIndex(record);
  const fields = Object.entries({ ...rest, entity: ENTITLEMENT_OBJECT_ENTITY, ...index });
  const { written } = await writeIf({
    Update: {
      Key: objectKey(record),
      UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}, started_at = if_not_exists(started_at, :started)${index ? '' : ' REMOVE GSI1PK, GSI1SK'}`,
      ConditionExpression:
        when === 'forward' ? 'attribute_not_exists(PK) OR observed_at <= :at' : 'attribute_not_exists(PK)',
      ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: {
        ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
        ':started': started_at,
        ...(when === 'forward' ? { ':at': record.observed_at } : {}),
      },
    },
  });
  return written;
};

/**
 * Writes `record` as its provider object's latest state unless that object's item was observed
 * later (an equal observation rewrites the same state): one conditional UpdateItem of the
 * object's item, keeping its first `started_at` and moving it in (or out of) the store renewal
 * index. Then the entitlement item (what every paywall reads) is computed from the target's
 * objects (`showTarget`, `shownState`). True when the entitlement item changed; false when it
 * already said the same or the object's item holds a later observation (the writer of that one
 * computes the entitlement). The table stream carries the entitlement item's before and after
 * images, from which the domain events and payment facts are made (shared/events/changes.ts);
 * object items make none (their `entity` is not published).
 */
export const applyEntitlement = async (record: EntitlementRecord, now = clock.now()): Promise<boolean> =>
  (await writeObject(record, 'forward')) && showTarget(record.account_id, targetOf(record), now);
