import { compareText } from '../compare.ts';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '../db/document.ts';
import type { DeviceType, Quality } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { cancellationCodes, isConditionalCheckFailed, type TransactOperation } from '../db/transaction.ts';
import { bucketStartSeconds } from './viewer-counter.ts';

/**
 * Watch sessions and the per-account concurrency guard (see docs/live.md):
 * - session:     PK `SESSION#<id>`, SK `SESSION`; TTL a day after `expires_at` (reads never trust
 *                TTL: a session past `expires_at` is expired whatever DynamoDB still holds)
 * - stream slot: PK `ACCOUNT#<account>`, SK `STREAM_SLOT#<0..max-1>` → the session_id holding it
 *                and its `started_at` (which slot an open tries first without reading sessions).
 * A slot has no expiry of its own: it is free when absent or when the session it names has ended
 * or lapsed. Opening a session claims such a slot in one transaction with a ConditionCheck on the
 * session it replaces (still ended or lapsed) and the new session's Put, so no race can open more
 * than `max`, and heartbeats never write slots.
 * A session is a lease renewed once per viewer-count bucket (BUCKET_SECONDS,
 * shared/audience/viewer-counter.ts): the first heartbeat in a bucket claims it (`counted_from`, a condition on
 * the one write it makes) and moves `expires_at` to SESSION_TTL_SECONDS past the bucket's end; the
 * other heartbeats of that bucket write nothing (docs/cost.md: one write per bucket instead of one
 * per beat). So a session that stops heartbeating expires SESSION_TTL_SECONDS after the end of the
 * bucket of its last counted heartbeat, 90 to 90 + BUCKET_SECONDS seconds after it.
 */
export interface WatchSessionRecord {
  session_id: string;
  account_id: string;
  creator_id: string;
  channel_id: string;
  stream_id: string;
  device_type: DeviceType;
  quality: Quality;
  timezone: string;
  started_at: string;
  expires_at: string;
  /** The last heartbeat that renewed the lease (one per bucket). */
  last_heartbeat_at: string;
  ended_at: string | null;
  slot: number;
  /**
   * The start (epoch seconds) of the last viewer-count bucket this session was counted in; absent
   * on older items. A time, not a bucket number, so a change of BUCKET_SECONDS cannot leave a
   * session claiming buckets it will never reach (the 30 s buckets' numbers are larger).
   */
  counted_from?: number;
}

const sessionKey = (id: string) => ({ PK: `SESSION#${id}`, SK: 'SESSION' });
const slotKey = (accountId: string, slot: number) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `STREAM_SLOT#${slot}`,
});
const ttl = (expiresAt: string) => Math.floor(Date.parse(expiresAt) / 1000) + 86_400;

/** Neither ended nor past its expiry at `now`. */
const isOpen = (session: Pick<WatchSessionRecord, 'ended_at' | 'expires_at'>, now: Date) =>
  session.ended_at === null && Date.parse(session.expires_at) > now.getTime();

/** Watch sessions an account may have open at once (the stream slots; docs/live.md). */
export const maxConcurrentStreams = () => Number(process.env.MAX_CONCURRENT_STREAMS ?? 3);

/**
 * A stream slot as its item says: the session holding it, when that session started, and the
 * bucket an open last counted a viewer through this slot.
 */
export interface SlotItem {
  slot: number;
  id: string;
  /** The holder's start; absent on slot items written before issue 41. */
  started_at?: string;
  /** The start (epoch seconds) of the bucket an open last counted through this slot. */
  counted_from?: number;
}

/** The account's slot items (one BatchGetItem): who holds each slot, not whether it is open. */
export const readSlotItems = async (accountId: string, maxSlots: number): Promise<SlotItem[]> =>
  (await batchGet(Array.from({ length: maxSlots }, (_, slot) => slotKey(accountId, slot)))).map((item) => ({
    slot: Number(String(item.SK).split('#')[1]),
    id: String(item.session_id),
    ...(typeof item.started_at === 'string' ? { started_at: item.started_at } : {}),
    ...(typeof item.counted_from === 'number' ? { counted_from: item.counted_from } : {}),
  }));

/** The slots with the sessions holding them (open or not), one BatchGetItem. */
const withHolders = async (slots: readonly SlotItem[]) => {
  const holders = new Map(
    (await batchGet(slots.map((slot) => sessionKey(slot.id)))).map((item) => {
      const session = recordOf<WatchSessionRecord>(item, { withoutTtl: true });
      return [session.session_id, session];
    }),
  );
  return slots.map((slot) => ({ ...slot, session: holders.get(slot.id) }));
};

/** The account's slots as read now: slot number → the session holding it (open or not), if any. */
const readSlots = async (accountId: string, maxSlots: number) =>
  withHolders(await readSlotItems(accountId, maxSlots));

/**
 * One transaction claiming `slot` for `record`: the slot item (absent, or still naming `holder`'s
 * session), the holder's session ended or lapsed (checked here, so a holder renewed meanwhile
 * keeps it), and the new session. Answers whether it was written and whether the open counts its
 * viewer: **a slot counts once per bucket** (the slot item's `counted_from`; only claims write it,
 * and the claim's condition on the holder pins it), so an account that opens and ends sessions
 * over and over adds at most its stream limit to a bucket at its opens (before stop 60 each open
 * counted one). Decided from the slot item the caller read, so it costs no read or phase.
 */
const claimSlot = async (
  record: WatchSessionRecord,
  holder: SlotItem | undefined,
  now: Date,
): Promise<{ written: boolean; counts: boolean }> => {
  const bucket = record.counted_from ?? 0;
  const counts = (holder?.counted_from ?? Number.NEGATIVE_INFINITY) < bucket;
  const countedFrom = counts ? bucket : holder?.counted_from;
  const operations: TransactOperation[] = [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...slotKey(record.account_id, record.slot),
          session_id: record.session_id,
          started_at: record.started_at,
          ...(countedFrom === undefined ? {} : { counted_from: countedFrom }),
        },
        ...(holder
          ? {
              ConditionExpression: 'session_id = :holder',
              ExpressionAttributeValues: { ':holder': holder.id },
            }
          : { ConditionExpression: 'attribute_not_exists(PK)' }),
      },
    },
    ...(holder
      ? [
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: sessionKey(holder.id),
              ConditionExpression: 'attribute_not_exists(PK) OR ended_at <> :null OR expires_at <= :now',
              ExpressionAttributeValues: { ':null': null, ':now': now.toISOString() },
            },
          },
        ]
      : []),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...sessionKey(record.session_id),
          entity: 'watch_session',
          ...record,
          expires_at_epoch: ttl(record.expires_at),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
  try {
    await db.send(new TransactWriteCommand({ TransactItems: operations }));
    return { written: true, counts };
  } catch (error) {
    if (!cancellationCodes(error)) throw error;
    return { written: false, counts }; // taken, renewed or conflicting meanwhile
  }
};

/**
 * The slot an open tries first from the slot items alone, without reading their sessions: the
 * lowest slot with no item, else the one whose holder started first (the likeliest to have ended;
 * items without a start first of all).
 */
const likeliestFree = (slots: readonly SlotItem[], maxSlots: number): { slot: number; holder?: SlotItem } => {
  for (let slot = 0; slot < maxSlots; slot++) if (!slots.some((s) => s.slot === slot)) return { slot };
  const oldest = [...slots].sort((a, b) => compareText(a.started_at ?? '', b.started_at ?? ''))[0]!;
  return { slot: oldest.slot, holder: oldest };
};

/**
 * Writes the session into a free slot of its account: one absent, or held by a session that has
 * ended or lapsed (checked inside the transaction). Returns undefined when every slot is held by
 * an open session (the caller answers 429).
 * `counted`: whether the open counts the viewer in its bucket (`counted_from`, the caller adds it
 * to the channel's count). Not when an open already counted through the slot in that bucket
 * (docs/live.md "Viewers"): the new session's first heartbeat of a later bucket counts it, as any.
 * Given the account's slot items as read (`slots`, read by the caller alongside its other reads),
 * it first claims the likeliest free slot with no further read: one transaction, so an open waits
 * for one write after its reads (issue 41). When that claim fails (the holder is open, or a
 * concurrent open took the slot) it reads the slots and their sessions and tries each free slot;
 * a slot lost to a concurrent open is passed over; two such rounds, each from a fresh read.
 */
export const openSession = async (
  session: Omit<WatchSessionRecord, 'slot'>,
  maxSlots: number,
  now: Date,
  slots?: readonly SlotItem[],
): Promise<{ session: WatchSessionRecord; counted: boolean } | undefined> => {
  if (slots) {
    const { slot, holder } = likeliestFree(slots, maxSlots);
    const record: WatchSessionRecord = { ...session, slot };
    const claim = await claimSlot(record, holder, now);
    if (claim.written) return { session: record, counted: claim.counts };
  }
  for (let round = 0; round < 2; round++) {
    const held = await readSlots(session.account_id, maxSlots);
    let contended = false;
    for (let slot = 0; slot < maxSlots; slot++) {
      const holder = held.find((h) => h.slot === slot);
      if (holder?.session && isOpen(holder.session, now)) continue;
      const record: WatchSessionRecord = { ...session, slot };
      const claim = await claimSlot(record, holder, now);
      if (claim.written) return { session: record, counted: claim.counts };
      contended = true; // the next slot, then a fresh read
    }
    if (!contended) return undefined;
  }
  return undefined;
};

/**
 * The account's open watch session on `creatorId`'s current stream, if any, among the sessions its
 * stream slots hold (`slots`, from readSlotItems; one BatchGetItem of their sessions), neither
 * ended nor expired at `now`. The newest when there are several (two devices).
 */
export const openSessionOn = async (
  creatorId: string,
  streamId: string,
  slots: readonly SlotItem[],
  now: Date,
): Promise<WatchSessionRecord | undefined> =>
  (await withHolders(slots))
    .flatMap(({ session }) => (session ? [session] : []))
    .filter((s) => s.creator_id === creatorId && s.stream_id === streamId && isOpen(s, now))
    .sort((a, b) => compareText(b.started_at, a.started_at))[0];

/**
 * A session by id, strongly consistent unless `consistent` is false: heartbeats read it
 * eventually consistent (half the read units; they come 30 s after the open, and a heartbeat's
 * write is conditional on the session as stored, docs/cost.md).
 */
export const getSession = async (id: string, consistent = true): Promise<WatchSessionRecord | undefined> => {
  const item = (
    await db.send(new GetCommand({ TableName: tableName(), Key: sessionKey(id), ConsistentRead: consistent }))
  ).Item;
  return item ? recordOf<WatchSessionRecord>(item, { withoutTtl: true }) : undefined;
};

/** Changes a live session (quality, device): false when it ended or expired meanwhile. Writes no slot. */
export const updateLiveSession = async (
  session: WatchSessionRecord,
  set: Partial<Pick<WatchSessionRecord, 'quality' | 'device_type'>>,
  now: Date,
): Promise<boolean> => {
  const fields = Object.entries(set);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKey(session.session_id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'ended_at = :null AND expires_at > :now',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
          ':null': null,
          ':now': now.toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
};

/**
 * A heartbeat's write, at most one per bucket: when the session (as read) has not been counted in
 * `bucket` yet, one conditional UpdateItem claims it and renews the lease to `expiresAt`.
 * Answers `counted` (the claim won: count the viewer once for this bucket, the session is valid
 * until `expiresAt`), `current` (already counted in this bucket: nothing written, the lease as
 * read still runs past the bucket) or `gone` (ended or expired). A claim lost to the same
 * session's concurrent heartbeat reads the session again (strongly) to tell the two apart.
 */
export const heartbeatSession = async (
  session: WatchSessionRecord,
  now: Date,
  bucket: number,
  expiresAt: string,
): Promise<{ outcome: 'counted' | 'current'; expires_at: string } | { outcome: 'gone' }> => {
  const from = bucketStartSeconds(bucket);
  if ((session.counted_from ?? Number.NEGATIVE_INFINITY) >= from) {
    return isOpen(session, now)
      ? { outcome: 'current', expires_at: session.expires_at }
      : { outcome: 'gone' };
  }
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKey(session.session_id),
        UpdateExpression:
          'SET expires_at = :exp, expires_at_epoch = :ttl, last_heartbeat_at = :now, counted_from = :from',
        ConditionExpression:
          'ended_at = :null AND expires_at > :now AND (attribute_not_exists(counted_from) OR counted_from < :from)',
        ExpressionAttributeValues: {
          ':exp': expiresAt,
          ':ttl': ttl(expiresAt),
          ':now': now.toISOString(),
          ':from': from,
          ':null': null,
        },
      }),
    );
    return { outcome: 'counted', expires_at: expiresAt };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  const again = await getSession(session.session_id);
  return again && (again.counted_from ?? Number.NEGATIVE_INFINITY) >= from && isOpen(again, now)
    ? { outcome: 'current', expires_at: again.expires_at }
    : { outcome: 'gone' };
};

/**
 * Ends a session at `endedAt`. Idempotent. Its slot is free from then on (an open checks the
 * holder's state), so the slot item is left for the next open to overwrite: one write, not a
 * two-item transaction.
 */
export const endSession = async (session: WatchSessionRecord, endedAt: string): Promise<void> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKey(session.session_id),
        UpdateExpression: 'SET ended_at = :at',
        ConditionExpression: 'ended_at = :null',
        ExpressionAttributeValues: { ':at': endedAt, ':null': null },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error; // already ended
  }
};

/**
 * Ends every watch session the account has open at `now` (a password reset signs the account out
 * everywhere, docs/accounts.md): one BatchGetItem of its slots, one of their sessions, one
 * UpdateItem per open session. The number ended.
 */
export const endOpenSessionsOf = async (accountId: string, now: Date): Promise<number> => {
  const open = (await readSlots(accountId, maxConcurrentStreams())).flatMap(({ session }) =>
    session && isOpen(session, now) ? [session] : [],
  );
  await Promise.all(open.map((session) => endSession(session, now.toISOString())));
  return open.length;
};

/** Deletes a watch session (the account's deletion; its stream slot goes with the account's partition). */
export const deleteSession = async (id: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: sessionKey(id) }));
};
