import { clock } from '../clock.ts';
import { ListStreamsCommand } from '@aws-sdk/client-ivs';
import type { LiveStream } from './channel-state.ts';
import { ivsClient } from '../ivs/client.ts';

/**
 * Every stream live on IVS now (ListStreams, paged by 100): what the per-minute reconcile
 * compares the creators' live state with. One request per 100 live channels.
 */
export const listLiveStreams = async (): Promise<LiveStream[]> => {
  const streams: LiveStream[] = [];
  let nextToken: string | undefined;
  do {
    const page = await ivsClient().send(new ListStreamsCommand({ maxResults: 100, nextToken }));
    for (const s of page.streams ?? []) {
      if (!s.channelArn || !s.streamId || s.state !== 'LIVE') continue;
      streams.push({
        channelArn: s.channelArn,
        streamId: s.streamId,
        startTime: s.startTime ?? clock.now(),
        health: s.health === 'HEALTHY' || s.health === 'STARVING' ? s.health : 'UNKNOWN',
        viewerCount: s.viewerCount ?? 0,
      });
    }
    nextToken = page.nextToken;
  } while (nextToken);
  return streams;
};
