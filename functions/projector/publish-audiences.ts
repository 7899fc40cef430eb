import { clock } from '../../shared/clock.ts';
import { listLiveStreams } from '../../shared/channels/live-streams.ts';
import { reconcileLiveChannels } from '../../shared/channels/channel-state.ts';
import { publishAudiences } from '../../shared/watch/audience-publisher.ts';
import { repairLostRecordings } from '../../shared/channels/recordings.ts';
import { worker } from '../../shared/platform/worker.ts';
import { audienceRow } from '../workers.ts';

/**
 * Every minute (EventBridge Scheduler, infra/projector.ts), the live lists' upkeep: first the
 * reconcile of the channels' live state with IVS (what late, lost or reordered IVS events left
 * wrong: docs/ivs-events.md), the repair of recordings whose Recording End was lost
 * (shared/channels/recordings.ts), then the live counters' viewers onto the live list.
 */
export const handler = worker(
  audienceRow,
  async () => {
    // `now` before ListStreams: a change IVS reports after it is newer than this reconcile.
    const reconciledAt = clock.now();
    const liveStreams = await listLiveStreams();
    const reconcile = await reconcileLiveChannels(liveStreams, reconciledAt);
    // Recordings whose Recording End was lost: published from their metadata once the stream is over.
    const recordings = await repairLostRecordings(
      new Set(liveStreams.map((stream) => stream.streamId)),
      reconciledAt,
    );
    const audiences = await publishAudiences(clock.now());
    return { reconcile, recordings, audiences };
  },
  (minute) => ({ message: 'live minute', fields: minute }),
);
