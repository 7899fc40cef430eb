/**
 * What the `live` namespace of the Event API carries (docs/realtime.md "Channels and payloads").
 * `/live/<channel segment>` (one per creator) carries four kinds, `/live/home` one; every message
 * is a full snapshot of its kind (a client that missed one loses nothing), published at most once
 * per kind per channel per tick, and versioned twice: `v` is the payload schema (a client ignores
 * a `v` it does not know), `tick` orders a kind's snapshots (a client keeps the highest it saw).
 */

/** The aggregator's tick: at most one message per kind per channel per tick. */
export const TICK_SECONDS = 5;
/** The payload schema version every message carries. */
export const MESSAGE_VERSION = 1;

/** The tick `at` falls in (epoch seconds / TICK_SECONDS). */
export const tickOf = (at: Date): number => Math.floor(at.getTime() / 1000 / TICK_SECONDS);
/** When `tick` starts (epoch ms). */
export const tickStartMs = (tick: number): number => tick * TICK_SECONDS * 1000;

/** The channel of the live list's changes. */
export const HOME_CHANNEL = '/live/home';

/**
 * A creator's channel. AppSync channel segments are letters, digits and dashes only (at most 50),
 * so the underscore of a creator id becomes a dash (`cr_0001` → `/live/cr-0001`, `acc_<uuid>` →
 * `/live/acc-<uuid>`, 40 characters): ids hold one underscore, after the prefix, so the mapping
 * is one to one. Clients take the channel from `GET .../live/realtime`, never build it.
 */
export const creatorChannel = (creatorId: string): string => `/live/${creatorId.replaceAll('_', '-')}`;

export type LiveKind = 'audience' | 'reactions' | 'state' | 'program';
export type MessageKind = LiveKind | 'home';
export const LIVE_KINDS: readonly LiveKind[] = ['audience', 'reactions', 'state', 'program'];

/** One message: its schema version, kind, creator (on a creator's channel), tick and time, and the snapshot. */
export interface LiveMessage<D = unknown> {
  v: typeof MESSAGE_VERSION;
  kind: MessageKind;
  creator_id?: string;
  tick: number;
  /** ISO time the snapshot was taken. */
  at: string;
  data: D;
}

/** `audience`: what `GET .../live/viewers` shows as `viewers`. */
export interface AudienceData {
  watching_now: number;
  peak_today: number;
  peak_all_time: number;
  by_device: Record<string, number>;
}

/**
 * The emoji a `reactions` message lists at most, the most used (`total` counts every reaction).
 * Any emoji sequence is a reaction, so a tick can carry thousands of distinct ones: listed in
 * full, the message passes AppSync's 240 KB event limit, fails to publish, and nobody sees any.
 */
export const REACTION_TOTALS_LISTED = 50;

/**
 * `reactions`: per-emoji totals of the tick before `tick` (the last complete one), with any counted
 * since the last message (a tick that ran late, a write that landed late), most first, at most
 * REACTION_TOTALS_LISTED of them; `total` is every reaction's.
 */
export interface ReactionsData {
  tick_seconds: number;
  totals: Array<{ emoji: string; count: number }>;
  total: number;
}

/** `state`: live or offline, ingest health, the stream's title and start. */
export interface StateData {
  is_live: boolean;
  stream_health: 'good' | 'poor' | 'offline';
  title: string | null;
  started_at: string | null;
}

/** `home`: the live list, most watched first (the first HOME_LIMIT), with what changed since the last one. */
export interface HomeData {
  live: Array<{ creator_id: string; watching_now: number }>;
  went_live: string[];
  went_offline: string[];
}
export const HOME_LIMIT = 50;
