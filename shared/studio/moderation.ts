import { CreateStreamKeyCommand, GetStreamCommand } from '@aws-sdk/client-ivs';
import { getStoredCreator, recordCreatorModeration } from '../creators/creator-repository.ts';
import { ivsClient } from '../ivs/client.ts';
import { endBroadcast, isNotBroadcasting } from '../ivs/end-broadcast.ts';
import { UnknownCreatorError } from './operator-writes.ts';

/**
 * An operator's moderation stop of a creator's live stream (`npm run operator -- stop-stream`,
 * docs/operations.md), through the IVS API with the operator's credentials:
 * 1. the moderation is recorded on the creator item (`moderation`: who, why, when, which stream),
 *    first, so it is on record even if a later step fails and before the stream's own events
 *    (Stream End, Recording End) arrive;
 * 2. every stream key of the channel is deleted, **then** the stream is stopped (`endBroadcast`,
 *    shared/ivs/end-broadcast.ts, which says why in that order);
 * 3. a new stream key is made, so the channel can go live again, but only with the new key, which
 *    its creator reads from `GET /studio/channel`.
 * The stream's end then reaches the lists the usual way (IVS Stream End → the reducer → offline).
 * Running it again is safe: it records again, deletes the key made by the last run, and makes
 * another (a channel that is not live is left offline).
 */

/** The creator has no IVS channel (never provisioned): nothing to stop. */
export class NoChannelError extends Error {
  constructor(readonly creatorId: string) {
    super(`creator "${creatorId}" has no IVS channel`);
    this.name = 'NoChannelError';
  }
}

/** What the creator item records of the last moderation (attribute `moderation`). */
export interface ModerationRecord {
  action: 'stop-stream';
  /** Who did it: the operator's name (the command's `--by`, else the workstation user). */
  by: string;
  reason: string;
  /** ISO timestamp. */
  at: string;
  /** The stream that was live when it was stopped; null if the channel was not live. */
  stream_id: string | null;
}

export interface StopStreamResult {
  creatorId: string;
  channelArn: string;
  moderation: ModerationRecord;
  /** Keys deleted (IVS allows one per channel; all are deleted whatever their number). */
  deletedKeys: string[];
  /** The stream StopStream ended; null when the channel was not (or no longer) broadcasting. */
  stoppedStreamId: string | null;
  /** The ARN of the new key (its value only ever goes to the creator, via the studio). */
  newKeyArn: string;
}

/** The channel's live stream id, or null when it is not broadcasting. */
const liveStreamId = async (channelArn: string): Promise<string | null> => {
  try {
    return (await ivsClient().send(new GetStreamCommand({ channelArn }))).stream?.streamId ?? null;
  } catch (error) {
    if (isNotBroadcasting(error)) return null;
    throw error;
  }
};

/**
 * Stops the creator's live stream for moderation: records it, deletes the channel's stream keys,
 * StopStream, then a new key (see the module comment). `by` and `reason` are recorded as given.
 */
export const stopStreamForModeration = async (
  creatorId: string,
  options: { by: string; reason: string; now: Date },
): Promise<StopStreamResult> => {
  const creator = await getStoredCreator(creatorId);
  if (!creator) throw new UnknownCreatorError(creatorId);
  const ivs = creator.ivs;
  if (!ivs) throw new NoChannelError(creatorId);
  const channelArn = ivs.channel_arn;

  const moderation: ModerationRecord = {
    action: 'stop-stream',
    by: options.by,
    reason: options.reason,
    at: options.now.toISOString(),
    stream_id: await liveStreamId(channelArn),
  };
  // Recorded on the creator item (`version` + 1, like every operator write).
  if (!(await recordCreatorModeration(creatorId, { ...moderation }))) throw new NoChannelError(creatorId);

  // Not stopped: it ended on its own meanwhile (or was never live); the keys are gone anyway.
  const { deletedKeys, stopped } = await endBroadcast(channelArn);
  const stoppedStreamId = stopped ? moderation.stream_id : null;
  const made = await ivsClient().send(new CreateStreamKeyCommand({ channelArn }));
  const newKeyArn = made.streamKey?.arn;
  if (!newKeyArn) throw new Error('IVS CreateStreamKey answered without the key');
  return { creatorId, channelArn, moderation, deletedKeys, stoppedStreamId, newKeyArn };
};
