import {
  DeleteChannelCommand,
  DeleteStreamKeyCommand,
  ListStreamKeysCommand,
  StopStreamCommand,
} from '@aws-sdk/client-ivs';
import { backoff } from '../backoff.ts';
import { ivsClient } from './client.ts';

/** IVS's answer to GetStream or StopStream on a channel that is not live. */
export const isNotBroadcasting = (error: unknown): boolean =>
  (error as Error).name === 'ChannelNotBroadcasting';

/** Every stream key ARN of the channel (all pages). */
const streamKeyArns = async (channelArn: string): Promise<string[]> => {
  const arns: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await ivsClient().send(new ListStreamKeysCommand({ channelArn, nextToken }));
    for (const key of page.streamKeys ?? []) if (key.arn) arns.push(key.arn);
    nextToken = page.nextToken;
  } while (nextToken);
  return arns;
};

/**
 * Ends a channel's broadcast for good: every stream key deleted, **then** StopStream, in that
 * order, since StopStream only disconnects the encoder, which would reconnect with a key that still
 * works (the IVS API reference, StopStream: "Many streaming client-software libraries
 * automatically reconnect a dropped RTMPS session, so to stop the stream permanently, you may
 * want to first revoke the streamKey attached to the channel."). The stream's end then reaches
 * the lists the usual way (IVS Stream End → the reducer → offline). Safe to run again: a channel
 * with no key and no stream is left as it is. Answers the keys deleted and whether a stream was
 * stopped (false: the channel was not, or no longer, live).
 */
export const endBroadcast = async (
  channelArn: string,
): Promise<{ deletedKeys: string[]; stopped: boolean }> => {
  const deletedKeys = await streamKeyArns(channelArn);
  for (const arn of deletedKeys) await ivsClient().send(new DeleteStreamKeyCommand({ arn }));
  try {
    await ivsClient().send(new StopStreamCommand({ channelArn }));
    return { deletedKeys, stopped: true };
  } catch (error) {
    if (!isNotBroadcasting(error)) throw error;
    return { deletedKeys, stopped: false };
  }
};

/** How many times a delete refused because the channel is still live is asked again (~1 minute). */
const DELETE_ATTEMPTS = 12;

/**
 * Deletes a channel, once its broadcast has ended (`endBroadcast` first): IVS refuses to delete a
 * channel until its stream's end is through (ConflictException; its API reference, DeleteChannel:
 * "call StopStream, wait for the Amazon EventBridge 'Stream End' event ..., then call
 * DeleteChannel"), so a refusal is asked again with backoff, about a minute in all, then thrown
 * (the caller's job is delivered again). A channel already gone is done.
 */
export const deleteChannelAfterBroadcast = async (channelArn: string): Promise<void> => {
  const gone = (error: Error) => {
    if (error.name !== 'ResourceNotFoundException') throw error;
  };
  await endBroadcast(channelArn).catch(gone);
  for (let attempt = 1; ; attempt++) {
    try {
      await ivsClient().send(new DeleteChannelCommand({ arn: channelArn }));
      return;
    } catch (error) {
      if ((error as Error).name !== 'ConflictException' || attempt >= DELETE_ATTEMPTS)
        return gone(error as Error);
      await backoff(attempt, 500, 8_000);
    }
  }
};
