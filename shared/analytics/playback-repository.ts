import { db } from '../db/client.ts';
import { PutCommand } from '../db/document.ts';
import { recordOf } from '../db/record.ts';
import { TABLE, tableName } from '../db/table.ts';
import { writeIf } from '../db/transaction.ts';
import { updateOf, withCondition } from '../db/update.ts';

/**
 * The playback of an analytics session the platform started (the view-counting rule is
 * shared/analytics/playback-count.ts): key design and named writes.
 * Item: PK `PLAYBACK#<session id>`, SK `PLAYBACK`, entity `playback` (a source item: the projector
 * counts its view, shared/projection/counters.ts) → the PlaybackRecord below; TTL.
 */

/** A session's playback as stored. */
export interface PlaybackRecord {
  content_id: string;
  /** The account that started it, when started signed in. */
  account_id?: string;
  /** Seconds played, summed over its heartbeats. */
  played: number;
  /** When its playing time first reached the view threshold (the view is counted once). */
  counted_at?: string;
}

const PREFIX = 'PLAYBACK#';
const key = (sessionId: string) => ({ PK: `${PREFIX}${sessionId}`, SK: 'PLAYBACK' });

/** The session id of a playback item (a stream record's image), or undefined for any other item. */
export const playbackSessionOf = (item: Record<string, unknown>): string | undefined => {
  const pk = item[TABLE.partitionKey];
  return typeof pk === 'string' && pk.startsWith(PREFIX) ? pk.slice(PREFIX.length) : undefined;
};

/**
 * Stores a session's playback, nothing played yet, expiring at `expiresAt` (epoch seconds), on
 * condition the session has none (a session id is issued once; a repeat throws).
 */
export const createPlayback = async (
  sessionId: string,
  playback: { contentId: string; accountId: string | undefined; expiresAt: number },
): Promise<void> => {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key(sessionId),
        entity: 'playback',
        content_id: playback.contentId,
        ...(playback.accountId ? { account_id: playback.accountId } : {}),
        played: 0,
        [TABLE.ttlAttribute]: playback.expiresAt,
      },
      ConditionExpression: `attribute_not_exists(${TABLE.partitionKey})`,
    }),
  );
};

/**
 * Adds `seconds` of playing time to a session's playback and moves its expiry to `expiresAt`, on
 * condition it exists, is of `contentId`, was started by `accountId` (or anonymously; an anonymous
 * beat only counts on an anonymous session) and has played at most `room` seconds so far. The
 * playback after, or undefined when refused.
 */
export const addPlayedSeconds = async (
  sessionId: string,
  beat: {
    contentId: string;
    accountId: string | undefined;
    seconds: number;
    room: number;
    expiresAt: number;
  },
): Promise<PlaybackRecord | undefined> => {
  const outcome = await writeIf({
    Update: {
      Key: key(sessionId),
      ...withCondition(
        updateOf({ set: { [TABLE.ttlAttribute]: beat.expiresAt }, add: { played: beat.seconds } }),
        {
          expression: `attribute_exists(${TABLE.partitionKey}) AND content_id = :c0 AND played <= :c1 AND ${
            beat.accountId
              ? '(attribute_not_exists(account_id) OR account_id = :c2)'
              : 'attribute_not_exists(account_id)'
          }`,
          values: {
            ':c0': beat.contentId,
            ':c1': beat.room,
            ...(beat.accountId ? { ':c2': beat.accountId } : {}),
          },
        },
      ),
      ReturnValues: 'ALL_NEW',
    },
  });
  return outcome.written ? recordOf<PlaybackRecord>(outcome.attributes ?? {}) : undefined;
};

/** Marks a session's playback counted at `at`, once; false when it already was. */
export const markPlaybackCounted = async (sessionId: string, at: Date): Promise<boolean> =>
  (
    await writeIf({
      Update: {
        Key: key(sessionId),
        ...withCondition(updateOf({ set: { counted_at: at.toISOString() } }), {
          expression: 'attribute_not_exists(counted_at)',
        }),
      },
    })
  ).written;
