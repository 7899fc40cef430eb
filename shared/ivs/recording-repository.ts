import { DeleteCommand, GetCommand, PutCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { queryAll } from '../db/query.ts';
import { recordOf } from '../db/record.ts';
import { TABLE, tableName } from '../db/table.ts';
import type { TransactOperation } from '../db/transaction.ts';

/**
 * Recordings of IVS broadcasts (docs/ivs-events.md "Recordings"): the two items that follow a
 * stream's recording from its Recording Start to its on-demand episode
 * (shared/channels/recordings.ts).
 * - pending: PK `RECORDINGS#PENDING`, SK `<stream id>` → the recording's place (entity
 *   `pending-recording`, expiring after PENDING_RECORDING_DAYS). Put at Recording Start, deleted
 *   with the episode; what is left once the stream is over is a recording whose Recording End
 *   was lost (the live minute's repair publishes it).
 * - published marker: PK `RECORDING#<stream id>`, SK `RECORDING` → where the episode went (entity
 *   `recording`). Put with the episode in one transaction on `attribute_not_exists`: the
 *   idempotence key of a stream's publication.
 */

/** A recording in progress, as Recording Start found it. */
export interface PendingRecording {
  creator_id: string;
  bucket: string;
  prefix: string;
  stream_id: string;
}

/** Where a stream's recording was published. */
export interface PublishedRecording {
  creator_id: string;
  show_id: string;
  episode_id: string;
  season: number;
  episode_number: number;
}

/** How long a pending recording is looked for (the recordings bucket keeps the files longer). */
export const PENDING_RECORDING_DAYS = 7;

const PENDING = 'RECORDINGS#PENDING';
const pendingKey = (streamId: string) => ({ PK: PENDING, SK: streamId });

/** The key of the marker that a stream's recording is published. */
export const recordingMarkerKey = (streamId: string) => ({ PK: `RECORDING#${streamId}`, SK: 'RECORDING' });

/** Records a recording in progress from `startedMs` (epoch ms); it expires after PENDING_RECORDING_DAYS. */
export const putPendingRecording = async (recording: PendingRecording, startedMs: number): Promise<void> => {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...pendingKey(recording.stream_id),
        entity: 'pending-recording',
        ...recording,
        [TABLE.ttlAttribute]: Math.floor(startedMs / 1000) + PENDING_RECORDING_DAYS * 86_400,
      },
    }),
  );
};

/** The recordings in progress at `now` (not expired): one Query of the pending partition. */
export const listPendingRecordings = async (now: Date): Promise<PendingRecording[]> =>
  (
    await queryAll({
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: `${TABLE.ttlAttribute} > :now`,
      ExpressionAttributeValues: { ':pk': PENDING, ':now': Math.floor(now.getTime() / 1000) },
    })
  ).map((item) => recordOf<PendingRecording>(item, { withoutTtl: true }));

/** A stream's recording is no longer pending. */
export const deletePendingRecording = async (streamId: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: pendingKey(streamId) }));
};

/** The transaction operation of `deletePendingRecording` (a no-op when none is pending). */
export const deletePendingRecordingOperation = (streamId: string): TransactOperation => ({
  Delete: { TableName: tableName(), Key: pendingKey(streamId) },
});

/** Is the recording of stream `streamId` published (its marker written)? Strongly consistent. */
export const isRecordingPublished = async (streamId: string): Promise<boolean> =>
  (
    await db.send(
      new GetCommand({ TableName: tableName(), Key: recordingMarkerKey(streamId), ConsistentRead: true }),
    )
  ).Item !== undefined;

/** The transaction operation putting the marker of stream `streamId`, on condition that it has none. */
export const putRecordingMarkerOperation = (
  streamId: string,
  published: PublishedRecording,
): TransactOperation => ({
  Put: {
    TableName: tableName(),
    Item: { ...recordingMarkerKey(streamId), entity: 'recording', ...published },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});
