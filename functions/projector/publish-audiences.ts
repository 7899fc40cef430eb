import { listLiveStreams } from '../../shared/ivs/live-streams.ts';
import { reconcileLiveChannels } from '../../shared/live/channel-state.ts';
import { publishAudiences } from '../../shared/live/audience-publisher.ts';

/**
 * Every minute (EventBridge Scheduler, infra/projector.ts), the live lists' upkeep: first the
 * reconcile of the channels' live state with IVS (what late, lost or reordered IVS events left
 * wrong: docs/ivs-events.md), then the live counters' viewers onto the live list.
 */
export const handler = async () => {
  // `now` before ListStreams: a change IVS reports after it is newer than this reconcile.
  const reconciledAt = new Date();
  const reconcile = await reconcileLiveChannels(await listLiveStreams(), reconciledAt);
  const audiences = await publishAudiences(new Date());
  console.log(JSON.stringify({ level: 'INFO', message: 'live minute', reconcile, audiences }));
  return { reconcile, audiences };
};
