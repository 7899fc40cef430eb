import { getChannelOwner, getChannelOwners, type IvsChannel } from '../ivs/channel-repository.ts';
import { cdnUrl, liveThumbnailUrlOf } from '../catalog/media-urls.ts';
import type { CreatorRecord } from '../catalog/model.ts';
import { allRankedIdsOf } from '../catalog/ranked-list.ts';
import { CREATOR_LISTS } from '../creators/creator-ranking.ts';
import {
  getStoredCreator,
  getStoredCreators,
  type StoredCreator,
  setCreatorLive,
  setCreatorOffline,
  setCreatorStreamHealth,
} from '../creators/creator-repository.ts';
import { logger } from '../observability/index.ts';
import { type IvsEvent, type LimitBreach, type RecordingStateChange, eventTimeMs } from './ivs-events.ts';

/**
 * A creator's live state from Amazon IVS (docs/ivs-events.md): the reducer of IVS's EventBridge
 * events and the reconcile against IVS's ListStreams. Both write only the creator item (`live`,
 * `stream_health` and their ordering guards, `ADD version 1`); the projector re-derives the live
 * lists from it. IVS delivers events late, twice, out of order or not at all, so every write is
 * one conditional UpdateItem that applies only what is newer than what the item records:
 * - `live_state_ms`: epoch ms of the last applied stream state change (the event's `time`, or the
 *   reconcile's `now`), with `live_state_stream_id`, the stream it was about (IVS times are whole
 *   seconds: a stream's End and the next stream's Start can share one, see the doc);
 * - `health_ms`: the same for `stream_health`, which only ever changes for the current stream.
 * A refused condition is a stale (repeated or overtaken) event, not an error.
 */

export type StreamHealth = 'healthy' | 'starving';

/** The creator item as this module reads it: the stored creator and its title for their streams. */
type CreatorItem = StoredCreator & {
  /** The creator's title for their streams; `<name> is live` when unset. */
  live_title?: string;
};

/** What applying one event did, for the handler's log line and metrics. */
export type IvsOutcome =
  | { kind: 'went-live' | 'went-offline'; creatorId: string; streamId: string }
  | { kind: 'health-changed'; creatorId: string; streamId: string; health: StreamHealth }
  /** Older than (or the same as) what the creator item records: a duplicate or a late event. */
  | { kind: 'stale'; creatorId: string; streamId: string; eventName: string }
  | {
      kind: 'ignored';
      reason: 'unknown-channel' | 'no-live-state-change';
      eventName: string;
      channelArn: string;
    }
  /**
   * Acted on by the handler (shared/channels/recordings.ts: the DVR playlist while live, the
   * on-demand item at the end): reported here, not applied.
   */
  | {
      kind: 'recording-started';
      creatorId: string;
      bucket: string;
      prefix: string;
      streamId: string;
      /** The event's time (epoch ms): a later recording's start wins. */
      startedMs: number;
    }
  | {
      kind: 'recording-ended';
      creatorId: string;
      bucket: string;
      prefix: string;
      streamId: string;
      durationMs: number;
    }
  | { kind: 'recording-failed'; creatorId: string; streamId: string; status: string; reason: string }
  | {
      kind: 'limit-breach';
      limitName: string;
      limitValue: number;
      exceededBy: number;
      limitUnit: string;
      channelArn?: string;
      streamId?: string;
    };

export interface ChannelStateDeps {
  /** Warnings (unknown channels, limit breaches): the container's structured logger by default. */
  warn: (message: string, fields: Record<string, unknown>) => void;
}

const defaultDeps: ChannelStateDeps = { warn: (message, fields) => logger.warn(message, fields) };

/**
 * The live thumbnail: the latest still of the stream's recording (set by Recording Start,
 * shared/channels/recordings.ts), when that came first; until then the creator's avatar, or the CDN's
 * generic live still. IVS serves no thumbnails on its playback host.
 */
const thumbnailUrl = (creator: IvsCreator, streamId: string): string =>
  creator.live_recording?.stream_id === streamId
    ? liveThumbnailUrlOf(creator.live_recording)
    : (creator.avatar_url ?? `${cdnUrl()}/thumbnails/live.jpg`);

type IvsCreator = CreatorItem & { ivs: IvsChannel };

/** Is this a creator whose channel is on IVS (the demo catalogue's are not)? */
const onIvs = (creator: CreatorItem | undefined): creator is IvsCreator => Boolean(creator?.ivs);

const liveOf = (
  creator: IvsCreator,
  streamId: string,
  startedAt: string,
): NonNullable<CreatorRecord['live']> => ({
  stream_id: streamId,
  title: creator.live_title || `${creator.name} is live`,
  started_at: startedAt,
  thumbnail_url: thumbnailUrl(creator, streamId),
});

const limitBreachOutcome = (event: LimitBreach, deps: ChannelStateDeps): IvsOutcome => {
  const outcome: IvsOutcome = {
    kind: 'limit-breach',
    limitName: event.detail.limit_name,
    limitValue: event.detail.limit_value,
    exceededBy: event.detail.exceeded_by,
    limitUnit: event.detail.limit_unit,
    ...(event.resources[0] ? { channelArn: event.resources[0] } : {}),
    ...(event.detail.stream_id ? { streamId: event.detail.stream_id } : {}),
  };
  // Names, numbers and ARNs only: an IVS document carries no stream keys or other secrets.
  deps.warn('IVS limit breached', { eventId: event.id, ...outcome });
  return outcome;
};

const recordingOutcome = (event: RecordingStateChange, creatorId: string): IvsOutcome => {
  const { detail } = event;
  switch (detail.recording_status) {
    case 'Recording End':
      return {
        kind: 'recording-ended',
        creatorId,
        bucket: detail.recording_s3_bucket_name,
        prefix: detail.recording_s3_key_prefix,
        streamId: detail.stream_id,
        durationMs: detail.recording_duration_ms,
      };
    case 'Recording Start Failure':
    case 'Recording End Failure':
      return {
        kind: 'recording-failed',
        creatorId,
        streamId: detail.stream_id,
        status: detail.recording_status,
        reason: detail.recording_status_reason,
      };
    case 'Recording Start':
      return {
        kind: 'recording-started',
        creatorId,
        bucket: detail.recording_s3_bucket_name,
        prefix: detail.recording_s3_key_prefix,
        streamId: detail.stream_id,
        startedMs: eventTimeMs(event),
      };
  }
};

/**
 * Applies one IVS event to its creator's live state (docs/ivs-events.md has the rules):
 * Stream Start → live; Stream End / Stream Failure → offline; Starvation Start / End → the
 * current stream's health; Recording Start / End (and failures) and Limit Breach are reported,
 * not applied (the handler acts on recordings: shared/channels/recordings.ts); the session and
 * takeover events change nothing. Events of a channel no creator owns
 * (a deleted channel's late events) are ignored with a warning.
 */
export const applyIvsEvent = async (
  event: IvsEvent,
  deps: ChannelStateDeps = defaultDeps,
): Promise<IvsOutcome> => {
  if (event['detail-type'] === 'IVS Limit Breach') return limitBreachOutcome(event, deps);
  const channelArn = event.resources[0];
  const eventName =
    event['detail-type'] === 'IVS Recording State Change'
      ? event.detail.recording_status
      : event.detail.event_name;
  const creatorId = await getChannelOwner(channelArn);
  if (!creatorId) {
    deps.warn('IVS event for a channel no creator owns: ignored', {
      eventId: event.id,
      channelArn,
      eventName,
    });
    return { kind: 'ignored', reason: 'unknown-channel', eventName, channelArn };
  }
  if (event['detail-type'] === 'IVS Recording State Change') return recordingOutcome(event, creatorId);

  const streamId = event.detail.stream_id;
  const t = eventTimeMs(event);
  const outcome = (applied: boolean, change: Exclude<IvsOutcome, { kind: 'stale' }>): IvsOutcome =>
    applied ? change : { kind: 'stale', creatorId, streamId, eventName };

  if (event['detail-type'] === 'IVS Stream Health Change') {
    const health = event.detail.event_name === 'Starvation Start' ? 'starving' : 'healthy';
    return outcome(await setCreatorStreamHealth(creatorId, { streamId, health, t }), {
      kind: 'health-changed',
      creatorId,
      streamId,
      health,
    });
  }
  switch (event.detail.event_name) {
    case 'Stream Start': {
      const creator: CreatorItem | undefined = await getStoredCreator(creatorId);
      // The lookup outlived its creator, or the creator its channel: as for an unknown channel.
      if (!onIvs(creator)) {
        deps.warn('IVS channel lookup names no IVS creator: ignored', {
          eventId: event.id,
          channelArn,
          creatorId,
        });
        return { kind: 'ignored', reason: 'unknown-channel', eventName, channelArn };
      }
      return outcome(
        await setCreatorLive(creatorId, { live: liveOf(creator, streamId, new Date(t).toISOString()), t }),
        {
          kind: 'went-live',
          creatorId,
          streamId,
        },
      );
    }
    case 'Stream End':
    case 'Stream Failure':
      return outcome(await setCreatorOffline(creatorId, { streamId, t, by: 'event' }), {
        kind: 'went-offline',
        creatorId,
        streamId,
      });
    default:
      // Session Created/Ended bracket the encoder's connection, not what viewers can watch; a
      // takeover keeps the stream live.
      return { kind: 'ignored', reason: 'no-live-state-change', eventName, channelArn };
  }
};

/** A stream IVS's ListStreams reports as LIVE (the fields of its StreamSummary this uses). */
export interface LiveStream {
  channelArn: string;
  streamId: string;
  startTime: Date;
  health: 'HEALTHY' | 'STARVING' | 'UNKNOWN';
  /** IVS's count; unused here: lists take `watching_now` from the live counters (docs/projections.md). */
  viewerCount: number;
}

export interface ReconcileReport {
  /** Creators on IVS looked at: those we show live and those owning a channel IVS lists. */
  checked: number;
  wentOffline: number;
  wentLive: number;
  healthChanged: number;
}

const healthOf = (health: LiveStream['health']): StreamHealth | undefined =>
  health === 'HEALTHY' ? 'healthy' : health === 'STARVING' ? 'starving' : undefined;

/** Ids in the live list (the projector's view of who is live): bounded by the live channels. */
const shownLiveIds = (): Promise<string[]> => allRankedIdsOf(CREATOR_LISTS.live);

/**
 * The time a reconcile's corrections carry: the last millisecond before the second `now` is in.
 * IVS stamps its events with whole seconds, so an event stamped in `now`'s second may have
 * happened after ListStreams answered (a stream that ended just after the listing): it wins over
 * the listing. An event of an earlier second happened before `now`: the listing is the later
 * truth, and wins.
 */
export const reconcileTimeMs = (now: Date): number => Math.floor(now.getTime() / 1000) * 1000 - 1;

/**
 * Corrects drift between the creator items and IVS (`liveStreams`: ListStreams' LIVE streams,
 * asked for at `now`), for what events missed: a creator shown live whose channel IVS does not
 * list goes offline; a channel IVS lists that we show offline, or with another stream, goes live
 * with IVS's stream id and start time; a known health is refreshed. Each write carries the same
 * guards as the events' with the time `reconcileTimeMs(now)`, so an event of `now`'s second or
 * later is never overwritten, and an offline correction also requires the stream it read (a
 * Start in between survives).
 * Creators without an IVS channel (the demo catalogue's) are left alone. Reads: one Query of the
 * live list, one BatchGetItem of the channels' lookups, one of the creators.
 */
export const reconcileLiveChannels = async (
  liveStreams: readonly LiveStream[],
  now: Date,
  deps: ChannelStateDeps = defaultDeps,
): Promise<ReconcileReport> => {
  const t = reconcileTimeMs(now);
  const [shownIds, ownerOf] = await Promise.all([
    shownLiveIds(),
    getChannelOwners(liveStreams.map((stream) => stream.channelArn)),
  ]);
  const creatorIds = [...new Set([...shownIds, ...ownerOf.values()])];
  const creators = new Map<string, CreatorItem>(
    (await getStoredCreators(creatorIds)).map((creator) => [creator.id, creator]),
  );
  const listed = new Set(liveStreams.map((stream) => stream.channelArn));

  const report: ReconcileReport = {
    checked: [...creators.values()].filter(onIvs).length,
    wentOffline: 0,
    wentLive: 0,
    healthChanged: 0,
  };
  const corrections: Promise<void>[] = [];
  for (const stream of liveStreams) {
    const creatorId = ownerOf.get(stream.channelArn);
    const creator = creatorId ? creators.get(creatorId) : undefined;
    if (!creatorId || !onIvs(creator)) {
      deps.warn('IVS lists a live channel no creator owns', { channelArn: stream.channelArn });
      continue;
    }
    const health = healthOf(stream.health);
    if (creator.live?.stream_id !== stream.streamId) {
      const live = liveOf(creator, stream.streamId, stream.startTime.toISOString());
      corrections.push(
        setCreatorLive(creatorId, { live, t, ...(health ? { health } : {}) }).then((done) => {
          if (done) report.wentLive++;
        }),
      );
    } else if (health && health !== creator.stream_health) {
      corrections.push(
        setCreatorStreamHealth(creatorId, { streamId: stream.streamId, health, t }).then((done) => {
          if (done) report.healthChanged++;
        }),
      );
    }
  }
  for (const creator of creators.values()) {
    if (!onIvs(creator) || !creator.live || listed.has(creator.ivs.channel_arn)) continue;
    corrections.push(
      setCreatorOffline(creator.id, { streamId: creator.live.stream_id, t, by: 'reconcile' }).then((done) => {
        if (done) report.wentOffline++;
      }),
    );
  }
  await Promise.all(corrections);
  return report;
};
