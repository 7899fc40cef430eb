import { perContainer } from '../aws/local-hook.ts';
import type { CreatorRecord } from '../catalog/model.ts';
import { getStoredCreators } from '../creators/creator-repository.ts';
import { heartbeatEpg } from '../epg/on-air.ts';
import { liveCreatorIds } from '../watch/audience-publisher.ts';
import { reactionShardsOf } from '../audience/audience-scale.ts';
import { channelViewers } from '../watch/watch-sessions.ts';
import { streamHealthOf } from '../watch/stream-views.ts';
import { TickAggregator } from './aggregator.ts';
import { EVENTS_PER_PUBLISH, publishEvents } from './event-api.ts';
import {
  type AudienceData,
  creatorChannel,
  HOME_CHANNEL,
  HOME_LIMIT,
  type HomeData,
  type LiveMessage,
  REACTION_TOTALS_LISTED,
  type ReactionsData,
  type StateData,
  TICK_SECONDS,
  tickOf,
} from './messages.ts';
import { type ReactionsRead, unpublishedReactions } from './reaction-counter.ts';
import { compareText } from '../compare.ts';

/**
 * One tick of the aggregator (docs/realtime.md "Who publishes"): the sources are the items the
 * other paths already write, read here once per tick, never once per viewer or per reaction:
 * - the IVS event reducer and the minute's reconcile write each creator's live state and health
 *   (`live`, `stream_health`): `state`;
 * - the projector keeps the live list (`RANK#creators#live`), which names the channels to look at
 *   and gives `/live/home`;
 * - the watch sessions' live counters, which the audience publisher folds into `watching_now`
 *   once a minute, give `audience` (the viewers endpoint's figures, read afresh each tick: the
 *   request paths' 5-second container cache would hold a tick that follows a late one to the
 *   counts of the tick before);
 * - the programme guide gives `program` (the heartbeat's `epg` block; republished when the
 *   programs on air or next change, not as their minutes tick);
 * - the reactions path's counters of the ticks since the last one read give `reactions`
 *   (shared/realtime/reaction-counter.ts `unpublishedReactions`: none lost to a late tick or write).
 * Each kind goes through the aggregator, which lets through only what changed; each channel's
 * messages go out in one publish (up to 5 events per call).
 */

export interface TickReport {
  tick: number;
  channels: number;
  messages: number;
  publishes: number;
  failures: number;
}

/** What a container keeps between ticks: the aggregator, the live list it last published, what it read of the reactions. */
export interface TickMemory {
  aggregator: TickAggregator;
  live: Set<string>;
  reactions?: ReactionsRead;
}
const memoryOf = /* @__PURE__ */ perContainer<TickMemory>(() => ({
  aggregator: new TickAggregator(),
  live: new Set(),
}));

export type Publish = (channel: string, events: readonly unknown[]) => Promise<unknown>;

const audienceOf = async (creator: CreatorRecord, now: Date): Promise<AudienceData> => {
  const viewers = await channelViewers(creator, now, { maxAgeMs: 0 });
  return {
    watching_now: viewers.watching_now,
    peak_today: viewers.peak_today,
    peak_all_time: viewers.peak_all_time,
    by_device: viewers.by_device,
  };
};

const stateOf = (creator: CreatorRecord): StateData => ({
  is_live: creator.live !== null && !creator.suspended_at,
  stream_health: creator.suspended_at ? 'offline' : streamHealthOf(creator),
  title: creator.live?.title ?? null,
  started_at: creator.live?.started_at ?? null,
});

/** A channel's `reactions` data from its per-emoji counts: the most used first, at most REACTION_TOTALS_LISTED. */
export const reactionsOf = (totals: Map<string, number> | undefined): ReactionsData => {
  const list = [...(totals ?? new Map<string, number>())]
    .map(([emoji, count]) => ({ emoji, count }))
    .sort((a, b) => b.count - a.count || a.emoji.localeCompare(b.emoji));
  return {
    tick_seconds: TICK_SECONDS,
    totals: list.slice(0, REACTION_TOTALS_LISTED),
    total: list.reduce((sum, e) => sum + e.count, 0),
  };
};

/** Runs one tick as of `now`: snapshots offered, changes published. */
export const publishTick = async (
  now: Date,
  options: { publish?: Publish; memory?: TickMemory } = {},
): Promise<TickReport> => {
  const publish = options.publish ?? publishEvents;
  const memory = options.memory ?? memoryOf();
  const { aggregator, live: wasLive } = memory;
  const tick = tickOf(now);
  const creators = (await getStoredCreators(await liveCreatorIds())).filter((c) => c.live && !c.suspended_at);
  const { totals, read } = await unpublishedReactions(
    creators.map((c) => ({ creatorId: c.id, shards: reactionShardsOf(c) })),
    tick,
    memory.reactions,
  );
  await Promise.all(
    creators.map(async (creator) => {
      const channel = creatorChannel(creator.id);
      const creatorId = creator.id;
      const [audience, program] = await Promise.all([
        audienceOf(creator, now),
        heartbeatEpg(creator, 'UTC', now),
      ]);
      aggregator.offer(channel, 'state', stateOf(creator), { creatorId });
      aggregator.offer(channel, 'audience', audience, { creatorId });
      aggregator.offer(channel, 'program', program, {
        creatorId,
        fingerprint: `${program.current_program?.program_id ?? '-'}/${program.next_program?.program_id ?? '-'}`,
      });
      const reactions = reactionsOf(totals.get(creator.id));
      // Every tick's totals are news (a new tick), but one empty tick after another is not.
      aggregator.offer(channel, 'reactions', reactions, {
        creatorId,
        fingerprint: reactions.total === 0 ? 'none' : String(tick),
      });
    }),
  );
  // Channels that were live and are not: one last `state` (offline), then forgotten.
  const liveNow = new Set(creators.map((c) => c.id));
  const offline = [...wasLive].filter((id) => !liveNow.has(id));
  for (const creatorId of offline)
    aggregator.offer(creatorChannel(creatorId), 'state', stateOf({ live: null } as CreatorRecord), {
      creatorId,
    });
  const ranked = [...creators].sort((a, b) => b.watching_now - a.watching_now || compareText(a.id, b.id));
  const home: HomeData = {
    live: ranked.slice(0, HOME_LIMIT).map((c) => ({ creator_id: c.id, watching_now: c.watching_now })),
    went_live: [...liveNow].filter((id) => !wasLive.has(id)).sort(),
    went_offline: offline.sort(),
  };
  // The whole snapshot is its fingerprint: a channel going live or offline outside the first 50
  // changes `went_live` / `went_offline` only, and is news (the tick after, with both empty, is a
  // new snapshot too: one more message per change).
  aggregator.offer(HOME_CHANNEL, 'home', home);
  const messages = aggregator.flush(tick, now);
  for (const creatorId of offline) aggregator.forget(creatorChannel(creatorId));
  memory.live = liveNow;
  memory.reactions = read;
  let publishes = 0;
  let failures = 0;
  await Promise.all(
    [...messages].map(async ([channel, list]: [string, LiveMessage[]]) => {
      for (let i = 0; i < list.length; i += EVENTS_PER_PUBLISH) {
        publishes++;
        try {
          await publish(channel, list.slice(i, i + EVENTS_PER_PUBLISH));
        } catch (error) {
          failures++;
          console.error(
            JSON.stringify({
              level: 'ERROR',
              message: 'realtime publish failed',
              channel,
              error: (error as Error).message,
            }),
          );
        }
      }
    }),
  );
  return {
    tick,
    channels: creators.length,
    messages: [...messages.values()].reduce((sum, list) => sum + list.length, 0),
    publishes,
    failures,
  };
};
