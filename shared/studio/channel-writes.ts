import {
  CreateChannelCommand,
  CreateStreamKeyCommand,
  DeleteChannelCommand,
  DeleteStreamKeyCommand,
  GetStreamKeyCommand,
  ListStreamKeysCommand,
} from '@aws-sdk/client-ivs';
import type { CreatorRecord } from '../catalog/model.ts';
import { setting } from '../config.ts';
import {
  attachCreatorChannelOperation,
  getStoredCreator,
  type StoredCreator,
} from '../creators/creator-repository.ts';
import { tableName } from '../db/table.ts';
import { transactWriteIf } from '../db/transaction.ts';
import { ConflictError, NotFoundError } from '../errors/errors.ts';
import { type IvsChannel, putIvsChannelOperation } from '../ivs/channel-repository.ts';
import { ivsClient } from '../ivs/client.ts';
import { roomLookupItem } from '../chat/chat-repository.ts';
import { createRoom, deleteRoom } from '../chat/rooms.ts';
import { ROTATED_CONCURRENTLY } from './channel-schemas.ts';

/**
 * A creator's channel on Amazon IVS (docs/live.md "Channels on IVS"): provisioned once through
 * the IVS API (channels are created at run time, not one stack resource per creator), its stream
 * key read from IVS when its owner asks (never stored by us, never logged), and rotated.
 */

/** The caller's channel as the studio shows it (the stream key only to its owner). */
export interface StudioChannelState {
  channel: IvsChannel;
  streamKey: string;
  live: CreatorRecord['live'];
  health?: string;
}

/** The ARN of the channel's one stream key (IVS allows one per channel), if it has one. */
const streamKeyArn = async (channelArn: string): Promise<string | undefined> =>
  (await ivsClient().send(new ListStreamKeysCommand({ channelArn }))).streamKeys?.[0]?.arn;

/** The channel's stream key: its ARN, then its value. */
const streamKeyOf = async (channelArn: string): Promise<{ arn: string; value: string } | undefined> => {
  const arn = await streamKeyArn(channelArn);
  if (!arn) return undefined;
  const key = await ivsClient().send(new GetStreamKeyCommand({ arn }));
  return { arn, value: key.streamKey?.value ?? '' };
};

const stateOf = (
  creator: Pick<StoredCreator, 'live' | 'stream_health'>,
  channel: IvsChannel,
  streamKey: string,
): StudioChannelState => ({
  channel,
  streamKey,
  live: creator.live,
  ...(creator.stream_health ? { health: creator.stream_health } : {}),
});

/**
 * Provisions the creator's IVS channel: LOW latency, private (`authorized`: playback needs our
 * token), recorded to the stack's recording configuration; named after the creator and tagged
 * with its id; and its IVS Chat room beside it (shared/chat/rooms.ts), made in parallel. The
 * channel and room go onto the creator item and their lookup items in one transaction, on
 * condition the creator has none yet: of two concurrent calls one wins, and the other deletes the
 * channel and room it made and answers the winner's (so a creator never owns two of either).
 * `created` says whether this call made it.
 */
export const provisionChannel = async (
  creator: CreatorRecord,
): Promise<StudioChannelState & { created: boolean }> => {
  const existing = await getStoredCreator(creator.id);
  if (existing?.ivs) return { ...(await channelState(creator.id)), created: false };
  const [channelMade, roomMade] = await Promise.allSettled([
    ivsClient().send(
      new CreateChannelCommand({
        name: creator.id,
        latencyMode: 'LOW',
        type: 'STANDARD',
        authorized: true,
        recordingConfigurationArn: setting('IVS_RECORDING_CONFIGURATION_ARN'),
        // `stage`: how the stack's teardown finds the channels its API made (infra/runtime-cleanup.ts).
        tags: { creator_id: creator.id, stage: setting('STAGE') },
      }),
    ),
    createRoom(creator.id),
  ]);
  // One of the two failed: the other is removed, so a retry starts from nothing.
  if (channelMade.status === 'rejected' || roomMade.status === 'rejected') {
    if (channelMade.status === 'fulfilled' && channelMade.value.channel?.arn)
      await ivsClient().send(new DeleteChannelCommand({ arn: channelMade.value.channel.arn }));
    if (roomMade.status === 'fulfilled') await deleteRoom(roomMade.value);
    throw channelMade.status === 'rejected' ? channelMade.reason : (roomMade as PromiseRejectedResult).reason;
  }
  const made = channelMade.value;
  const roomArn = roomMade.value;
  const arn = made.channel?.arn;
  if (!arn || !made.channel?.playbackUrl || !made.channel.ingestEndpoint)
    throw new Error('IVS CreateChannel answered without the channel');
  const channel: IvsChannel = {
    channel_arn: arn,
    playback_url: made.channel.playbackUrl,
    ingest_endpoint: made.channel.ingestEndpoint,
    chat_room_arn: roomArn,
  };
  const won = await transactWriteIf([
    attachCreatorChannelOperation(creator.id, channel),
    putIvsChannelOperation(arn, creator.id),
    { Put: { TableName: tableName(), Item: roomLookupItem(roomArn, creator.id) } },
  ]);
  if (!won) {
    await Promise.all([ivsClient().send(new DeleteChannelCommand({ arn })), deleteRoom(roomArn)]);
    return { ...(await channelState(creator.id)), created: false };
  }
  return {
    ...stateOf(existing ?? creator, channel, made.streamKey?.value ?? ''),
    created: true,
  };
};

/** The creator's channel with its stream key and live state; 404 before it is provisioned. */
export const channelState = async (creatorId: string): Promise<StudioChannelState> => {
  const creator = await getStoredCreator(creatorId);
  if (!creator?.ivs) throw new NotFoundError('No channel yet: create it with POST /studio/channel');
  const key = await streamKeyOf(creator.ivs.channel_arn);
  return stateOf(creator, creator.ivs, key?.value ?? '');
};

/**
 * Replaces the channel's stream key: the old key is deleted first (IVS allows one key per
 * channel, and an encoder using the old key is refused from then on), then a new one is made.
 * A failure between the two leaves the channel without a key: rotating again repairs it. Of two
 * concurrent rotations (a double click) both may list the same old key: the second delete finds it
 * gone (done all the same), and the second create finds the channel's one key already made by
 * the other (IVS's ServiceQuotaExceededException): 409, the key the other made is the channel's.
 */
export const rotateStreamKey = async (creatorId: string): Promise<StudioChannelState> => {
  const creator = await getStoredCreator(creatorId);
  if (!creator?.ivs) throw new NotFoundError('No channel yet: create it with POST /studio/channel');
  const channelArn = creator.ivs.channel_arn;
  const old = await streamKeyArn(channelArn);
  if (old)
    await ivsClient()
      .send(new DeleteStreamKeyCommand({ arn: old }))
      .catch((error: Error) => {
        if (error.name !== 'ResourceNotFoundException') throw error;
      });
  const made = await ivsClient()
    .send(new CreateStreamKeyCommand({ channelArn }))
    .catch((error: Error) => {
      throw error.name === 'ServiceQuotaExceededException' ? new ConflictError(ROTATED_CONCURRENTLY) : error;
    });
  return stateOf(creator, creator.ivs, made.streamKey?.value ?? '');
};
