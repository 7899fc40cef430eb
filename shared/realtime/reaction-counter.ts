import { randomInt } from 'node:crypto';
import { MIN_REACTION_SHARDS } from '../audience/audience-scale.ts';
import { addLiveReaction, readLiveReactions } from './live-reaction-repository.ts';
import { TICK_SECONDS } from './messages.ts';

/**
 * Live reactions, counted per channel per tick (docs/realtime.md "Reactions"): each reaction is
 * one atomic ADD on one of the channel's counter shards of its tick
 * (shared/realtime/live-reaction-repository.ts), a count per emoji. The
 * shards spread a burst over items (DynamoDB's per-partition ceiling is 1,000 writes a second);
 * how many follows the channel's audience scale (`reactionShardsFor`,
 * shared/audience/audience-scale.ts: 10 up to 25,000 viewers, 512 at 1 million), and the writer and
 * the tick derive it from the same creator item. The aggregator reads a tick's shards after it
 * ends, and once more on the next tick for the writes that landed late (`unpublishedReactions`),
 * and publishes one `reactions` message a tick: the cost of a reaction is one write, whatever the
 * number of viewers. Items expire by TTL a day later.
 */
/** Shards of a channel whose audience scale is unknown to the caller: the fewest there are. */
export const REACTION_SHARDS = MIN_REACTION_SHARDS;

/** Counts one `emoji` into `tick`'s totals of `creatorId`'s channel (a random one of its `shards`). */
export const countLiveReaction = async (
  creatorId: string,
  emoji: string,
  tick: number,
  shards = REACTION_SHARDS,
  shard = randomInt(shards),
): Promise<void> => {
  await addLiveReaction(creatorId, { tick, shard, emoji, expiresAt: (tick + 1) * TICK_SECONDS + 86_400 });
};

/** A live channel and how many reaction shards it counts into (`reactionShardsOf` of its creator). */
export interface ReactionChannel {
  creatorId: string;
  shards: number;
}

/**
 * What a container's ticks have read of the reactions counters: the last tick read (`through`)
 * and, per creator, its counts as read then.
 */
export interface ReactionsRead {
  through: number;
  seen: Map<string, Map<string, number>>;
}

/**
 * How many ticks back a tick catches up on counters it has not read (ticks skipped while the one
 * before ran long, or a late invocation). Past it, the container's memory is treated as gone (a
 * frozen container: another container has published those ticks since), and the tick reads only
 * the tick that ended, as a cold container does.
 */
export const CATCH_UP_TICKS = 6;

/**
 * The reactions a tick at `tick` publishes, per creator, and what it read: every tick since the
 * last one read up to the one that just ended (a tick that ran late skipped none), plus what
 * arrived in the last one read after it was read (a reaction whose write landed after its tick was
 * read: a slow or cold request, an eventually consistent read). Each reaction is published once,
 * at most a tick late; one counted more than a tick late is never shown.
 */
export const unpublishedReactions = async (
  channels: readonly ReactionChannel[],
  tick: number,
  read: ReactionsRead | undefined,
): Promise<{ totals: Map<string, Map<string, number>>; read: ReactionsRead }> => {
  const last = tick - 1;
  const behind = read ? last - read.through : -1;
  const first = read && behind >= 0 && behind <= CATCH_UP_TICKS ? read.through : last;
  const ticks = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const counts = await readLiveReactions(channels, ticks);
  const totals = new Map<string, Map<string, number>>();
  const seen = new Map<string, Map<string, number>>();
  for (const [creatorId, byTick] of counts) {
    const sum = new Map<string, number>();
    for (const [t, emojis] of byTick) {
      const already = t === read?.through ? read.seen.get(creatorId) : undefined;
      for (const [emoji, count] of emojis) {
        const fresh = count - (already?.get(emoji) ?? 0);
        if (fresh > 0) sum.set(emoji, (sum.get(emoji) ?? 0) + fresh);
      }
    }
    totals.set(creatorId, sum);
    seen.set(creatorId, byTick.get(last) ?? new Map());
  }
  return { totals, read: { through: last, seen } };
};
