import { PutMetadataCommand } from '@aws-sdk/client-ivs';
import { ConflictError, NotFoundError, TooManyRequestsError } from '../errors/errors.ts';
import { ivsClient } from '../ivs/client.ts';
import { requireStudioCreator } from '../creators/studio-creator.ts';
import { takeCueSlot } from './cue-slot-repository.ts';
import type { CueInput, CueSent } from './schemas.ts';

/**
 * Video-synchronised cues (docs/realtime.md "Cues"): a creator's cue (`{ type, payload }`, at most
 * 1 KB as JSON, sent as that JSON) goes into the live stream as IVS timed metadata (PutMetadata), so every player
 * shows it at the same moment of the picture, not when a message happens to arrive.
 * IVS allows 5 PutMetadata calls a second per channel and 155 per account: the scheduler books a
 * slot in a second's budget of both (one transaction of two conditional counters,
 * shared/realtime/cue-slot-repository.ts), taking the first second
 * with room among the next CUE_LOOKAHEAD_SECONDS, and the call waits for it; with no room, 429.
 */
export const CUES_PER_SECOND_PER_CHANNEL = 5;
export const CUES_PER_SECOND_PER_ACCOUNT = 155;
export const CUE_LOOKAHEAD_SECONDS = 3;

/** Books the first second with room on the channel and the account, from `now`'s; 429 when none. */
export const reserveCueSlot = async (channelId: string, now: Date): Promise<number> => {
  const first = Math.floor(now.getTime() / 1000);
  for (let second = first; second < first + CUE_LOOKAHEAD_SECONDS; second++) {
    const booked = await takeCueSlot(channelId, second, {
      perChannel: CUES_PER_SECOND_PER_CHANNEL,
      perAccount: CUES_PER_SECOND_PER_ACCOUNT,
    });
    if (booked) return second;
  }
  throw new TooManyRequestsError(
    `Cue rate reached: IVS takes ${CUES_PER_SECOND_PER_CHANNEL} cues a second per channel; retry in a few seconds`,
    'rate_limit',
    { 'retry-after': String(CUE_LOOKAHEAD_SECONDS) },
  );
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** `POST /studio/channel/cues`: 404 without a channel, 409 when it is not broadcasting, 429 past the budget. */
export const sendCue = async (accountId: string, cue: CueInput, now: Date): Promise<CueSent> => {
  const creator = await requireStudioCreator(accountId);
  if (!creator.ivs) throw new NotFoundError('No channel yet: create it with POST /studio/channel');
  if (!creator.live) throw new ConflictError('The channel is not broadcasting: cues go into a live stream');
  const second = await reserveCueSlot(creator.channel.channel_id, now);
  await sleep(second * 1000 - Date.now());
  const sentAt = new Date(Math.max(Date.now(), second * 1000));
  const metadata = JSON.stringify({ type: cue.type, payload: cue.payload });
  try {
    await ivsClient().send(new PutMetadataCommand({ channelArn: creator.ivs.channel_arn, metadata }));
  } catch (error) {
    // The stream ended between the check and the call.
    if ((error as { name?: string }).name === 'ChannelNotBroadcasting')
      throw new ConflictError('The channel is not broadcasting: cues go into a live stream');
    throw error;
  }
  return {
    type: cue.type,
    scheduled_at: new Date(second * 1000).toISOString(),
    sent_at: sentAt.toISOString(),
    bytes: Buffer.byteLength(metadata),
  };
};
