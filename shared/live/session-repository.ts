import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeviceType, Quality } from '../catalog/model.ts';
import { batchGet } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { recordOf } from '../db/record.ts';
import { tableName } from '../db/table.ts';
import { cancellationCodes, type TransactOperation, transactWriteIf } from '../db/transaction.ts';

/**
 * Watch sessions and the per-account concurrency guard (see docs/live.md):
 * - session:     PK `SESSION#<id>`, SK `SESSION`; TTL a day after `expires_at` (reads never trust
 *                TTL: a session past `expires_at` is expired whatever DynamoDB still holds)
 * - stream slot: PK `ACCOUNT#<account>`, SK `STREAM_SLOT#<0..max-1>` → session_id, expires_at_ms.
 * Opening a session claims a free slot (absent, or held by a session that has expired or ended)
 * in the same transaction that writes the session, so no race can open more than `max`.
 * `counted_bucket` is the last viewer-count bucket the session was counted in: a heartbeat claims
 * a new bucket with a condition on the write it makes anyway (`heartbeatSession`), so a session is
 * counted once per bucket however many heartbeats it sends.
 * The slot's expiry runs SLOT_LEAD_SECONDS ahead of its session's (`slot_expires_at_ms` on the
 * session says where it is): a heartbeat rewrites the slot only when the session's new expiry
 * would pass it, every fourth heartbeat at 30 s, and otherwise updates the session alone (one
 * plain UpdateItem, 1 write unit, instead of a two-item transaction, 4). The price: a session that
 * lapses without DELETE holds its slot up to SLOT_LEAD_SECONDS longer than it stays valid
 * (docs/cost.md); the session itself expires exactly as before.
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
  last_heartbeat_at: string;
  ended_at: string | null;
  slot: number;
  /** The last viewer-count bucket (`bucketOf`) this session was counted in; absent on older items. */
  counted_bucket?: number;
  /** When its slot expires (epoch ms), as last written; absent on older items (the slot is rewritten). */
  slot_expires_at_ms?: number;
}

/** How far a slot's expiry runs ahead of its session's (bounds how long a lapsed session holds it). */
export const SLOT_LEAD_SECONDS = 90;
const slotExpiry = (sessionExpiresAt: string) => Date.parse(sessionExpiresAt) + SLOT_LEAD_SECONDS * 1000;

const sessionKey = (id: string) => ({ PK: `SESSION#${id}`, SK: 'SESSION' });
const slotKey = (accountId: string, slot: number) => ({
  PK: `ACCOUNT#${accountId}`,
  SK: `STREAM_SLOT#${slot}`,
});
const ttl = (expiresAt: string) => Math.floor(Date.parse(expiresAt) / 1000) + 86_400;

/**
 * Writes the session into the first free slot of its account. Returns false when every slot is
 * held by a live session (the caller answers 429). Slots are tried in order; a slot lost to a
 * concurrent transaction is tried again once.
 */
export const openSession = async (
  session: Omit<WatchSessionRecord, 'slot'>,
  maxSlots: number,
  now: Date,
): Promise<WatchSessionRecord | undefined> => {
  for (let slot = 0; slot < maxSlots; slot++) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const record: WatchSessionRecord = {
        ...session,
        slot,
        slot_expires_at_ms: slotExpiry(session.expires_at),
      };
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName(),
                  Item: {
                    ...slotKey(session.account_id, slot),
                    session_id: session.session_id,
                    expires_at_ms: record.slot_expires_at_ms,
                  },
                  ConditionExpression: 'attribute_not_exists(PK) OR expires_at_ms <= :now',
                  ExpressionAttributeValues: { ':now': now.getTime() },
                },
              },
              {
                Put: {
                  TableName: tableName(),
                  Item: {
                    ...sessionKey(session.session_id),
                    entity: 'watch_session',
                    ...record,
                    expires_at_epoch: ttl(session.expires_at),
                  },
                  ConditionExpression: 'attribute_not_exists(PK)',
                },
              },
            ],
          }),
        );
        return record;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (!codes) throw error;
        if (codes[0] === 'ConditionalCheckFailed') break; // slot taken: try the next one
        if (attempt === 1) throw error; // conflict twice: let the client retry (503)
      }
    }
  }
  return undefined;
};

/**
 * The account's open watch session on `creatorId`'s current stream, if any: the sessions its
 * stream slots hold (one BatchGetItem of the `maxSlots` slot items, one of their sessions),
 * neither ended nor expired at `now`. The newest when there are several (two devices).
 */
export const openSessionOn = async (
  accountId: string,
  creatorId: string,
  streamId: string,
  maxSlots: number,
  now: Date,
): Promise<WatchSessionRecord | undefined> => {
  const slots = await batchGet(Array.from({ length: maxSlots }, (_, slot) => slotKey(accountId, slot)));
  const held = slots.filter((slot) => Number(slot.expires_at_ms) > now.getTime());
  const sessions = (await batchGet(held.map((slot) => sessionKey(String(slot.session_id))))).map((item) =>
    recordOf<WatchSessionRecord>(item, { withoutTtl: true }),
  );
  return sessions
    .filter(
      (s) =>
        s.creator_id === creatorId &&
        s.stream_id === streamId &&
        s.ended_at === null &&
        Date.parse(s.expires_at) > now.getTime(),
    )
    .sort((a, b) => b.started_at.localeCompare(a.started_at))[0];
};

export const getSession = async (id: string): Promise<WatchSessionRecord | undefined> => {
  const item = (
    await db.send(new GetCommand({ TableName: tableName(), Key: sessionKey(id), ConsistentRead: true }))
  ).Item;
  return item ? recordOf<WatchSessionRecord>(item, { withoutTtl: true }) : undefined;
};

const sessionUpdate = (
  session: WatchSessionRecord,
  set: Partial<WatchSessionRecord>,
  now: Date,
  claim?: number,
) => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':null': null };
  const parts = Object.entries(set).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  if (set.expires_at) {
    parts.push('expires_at_epoch = :ttl');
    values[':ttl'] = ttl(set.expires_at);
  }
  // Only a live session changes: not ended, not past its expiry.
  let condition = 'ended_at = :null AND expires_at > :now';
  if (claim !== undefined) {
    parts.push('counted_bucket = :bucket');
    values[':bucket'] = claim;
    condition += ' AND (attribute_not_exists(counted_bucket) OR counted_bucket < :bucket)';
  }
  return {
    Update: {
      TableName: tableName(),
      Key: sessionKey(session.session_id),
      UpdateExpression: `SET ${parts.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/**
 * The session update (claiming `claim` when given). When a new expiry would pass the slot's, one
 * transaction also moves the slot's SLOT_LEAD_SECONDS ahead of it; otherwise a plain UpdateItem.
 * False when a condition failed (the session ended or expired meanwhile).
 */
const writeLiveSession = async (
  session: WatchSessionRecord,
  set: Partial<WatchSessionRecord>,
  now: Date,
  claim?: number,
): Promise<boolean> => {
  const slotDue =
    set.expires_at !== undefined && Date.parse(set.expires_at) > (session.slot_expires_at_ms ?? 0);
  if (!slotDue) {
    try {
      await db.send(new UpdateCommand(sessionUpdate(session, set, now, claim).Update));
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
  const slotExpiresAt = slotExpiry(set.expires_at!);
  const items: TransactOperation[] = [
    sessionUpdate(session, { ...set, slot_expires_at_ms: slotExpiresAt }, now, claim),
    {
      Update: {
        TableName: tableName(),
        Key: slotKey(session.account_id, session.slot),
        UpdateExpression: 'SET expires_at_ms = :exp',
        ConditionExpression: 'session_id = :sid',
        ExpressionAttributeValues: { ':exp': slotExpiresAt, ':sid': session.session_id },
      },
    },
  ];
  return transactWriteIf(items);
};

/** Extends or changes a live session (and its slot's expiry). False when it ended or expired meanwhile. */
export const updateLiveSession = (session: WatchSessionRecord, set: Partial<WatchSessionRecord>, now: Date) =>
  writeLiveSession(session, set, now);

/**
 * A heartbeat's write: extends a live session like `updateLiveSession` and, when the session (as
 * read) has not been counted in `bucket` yet, claims that bucket in the same transaction. Answers
 * `counted` (the claim won: count the viewer once for this bucket), `extended` (already counted
 * in this bucket: do not count) or `gone` (ended or expired meanwhile). The claim is one more
 * condition and attribute on the write a heartbeat makes anyway, so a heartbeat costs no extra
 * round trip; only a claim lost to a concurrent heartbeat of the same session (or to an end)
 * costs a second write, which tells the two apart.
 */
export const heartbeatSession = async (
  session: WatchSessionRecord,
  set: Partial<WatchSessionRecord>,
  now: Date,
  bucket: number,
): Promise<'counted' | 'extended' | 'gone'> => {
  if ((session.counted_bucket ?? Number.NEGATIVE_INFINITY) < bucket) {
    if (await writeLiveSession(session, set, now, bucket)) return 'counted';
  }
  return (await writeLiveSession(session, set, now)) ? 'extended' : 'gone';
};

const endUpdate = (session: WatchSessionRecord, endedAt: string) => ({
  TableName: tableName(),
  Key: sessionKey(session.session_id),
  UpdateExpression: 'SET ended_at = :at',
  ConditionExpression: 'ended_at = :null',
  ExpressionAttributeValues: { ':at': endedAt, ':null': null },
});

/** Ends a session at `endedAt` and frees its slot if it still holds it. Idempotent. */
export const endSession = async (session: WatchSessionRecord, endedAt: string): Promise<void> => {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: endUpdate(session, endedAt) },
          {
            Delete: {
              TableName: tableName(),
              Key: slotKey(session.account_id, session.slot),
              ConditionExpression: 'session_id = :sid',
              ExpressionAttributeValues: { ':sid': session.session_id },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    if (codes[0] === 'ConditionalCheckFailed') return; // already ended
    // The slot was reclaimed by a newer session after this one expired: end this session alone.
    try {
      await db.send(new UpdateCommand(endUpdate(session, endedAt)));
    } catch (inner) {
      if ((inner as Error).name !== 'ConditionalCheckFailedException') throw inner;
    }
  }
};
