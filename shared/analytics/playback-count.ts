import { UpdateCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import { isConditionalCheckFailed } from '../db/transaction.ts';

/**
 * The view-counting rule (docs/projections.md, "Counters"): an on-demand view counts once per
 * analytics session (`session_id`) whose heartbeats and end report at least VIEW_SECONDS of
 * actual playback (`playing_seconds`, summed), for the episode the session started with. The
 * session's playback item is the source item of that view: when its sum first reaches the
 * threshold it gets `counted_at` (once: a conditional write), and the projector counts the view
 * (shared/projection/counters.ts). Anonymous sessions count too; seeking does not count, only
 * playing time does.
 * Key design (owned here): PK `PLAYBACK#<session id>`, SK `PLAYBACK` → entity `playback`,
 * `content_id`, `played` (seconds), `counted_at`; expires two days after its last heartbeat.
 */
export const VIEW_SECONDS = 30;

const key = (sessionId: string) => ({ PK: `PLAYBACK#${sessionId}`, SK: 'PLAYBACK' });

/**
 * Adds `seconds` of playback to a session; marks it counted when the sum first reaches
 * VIEW_SECONDS. One UpdateItem per heartbeat, a second one only at the crossing.
 */
export const recordPlayback = async (sessionId: string, contentId: string, seconds: number, now: Date) => {
  if (!(seconds > 0)) return;
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(sessionId),
      UpdateExpression:
        'SET entity = :entity, content_id = if_not_exists(content_id, :content), expires_at_epoch = :expires ADD played :seconds',
      ExpressionAttributeValues: {
        ':entity': 'playback',
        ':content': contentId,
        ':expires': Math.floor(now.getTime() / 1000) + 2 * 86_400,
        ':seconds': seconds,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const session = result.Attributes ?? {};
  if (Number(session.played) < VIEW_SECONDS || session.counted_at !== undefined) return;
  await db
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(sessionId),
        UpdateExpression: 'SET counted_at = :now',
        ConditionExpression: 'attribute_not_exists(counted_at)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    )
    .catch((error: Error) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
};
