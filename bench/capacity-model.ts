/**
 * The arithmetic of the capacity plan (bench/capacity.ts, docs/capacity.md): from what one request
 * of each kind touched (measured through the real handlers against DynamoDB Local), the request
 * rates an event of `viewers` makes, and from those the read and write units each key takes a
 * second, the Lambda concurrency, API Gateway's request rate and the other services' rates, set
 * against their limits. Pure: test/bench/capacity-model.test.ts checks it by hand.
 */

/** What one request of a kind consumed on one family of keys (one channel's viewer shards, one session...). */
export interface FamilyUse {
  /** Read and write units per request on the family, all its keys together. */
  rru: number;
  wru: number;
  /**
   * How many keys the family spreads over at this scale (the shards), as seen in one read of all
   * of them; 1 for a single item. Per-viewer families (a session, an account's slots): 1.
   */
  spread: number;
  /** The most keys of the family one request reads (two buckets' shards for a count); `spread` when absent. */
  readSpread?: number;
  /** Every viewer has their own (a session, an account's stream slots): the rate per key is one viewer's. */
  perViewer: boolean;
  /** Write units per request without container reuse: present for writes a container makes at most once per `reuseSeconds` (a rising peak). */
  coldWru?: number;
  /**
   * Read units per request when a container does not reuse what it read: present only for the
   * families a warm container reads at most once per `reuseSeconds` (the creator item on a big
   * channel, the viewer counts, the schedule).
   */
  coldRru?: number;
}

/** One kind of request, measured. */
export interface OpProfile {
  op: string;
  /** Mean duration of one request (ms), for Lambda concurrency (Little's law). */
  ms: number;
  /** Lambda memory of its function (MB). */
  memoryMb: number;
  /** Firehose records and bytes one request hands the sink. */
  firehoseRecords: number;
  firehoseBytes: number;
  families: Record<string, FamilyUse>;
}

/** Requests a second of each kind, at one moment of the event. */
export type Rates = Record<string, number>;

/** How the audience behaves (the product's own rates, docs/live.md, docs/realtime.md; the ramp and reactions are plans). */
export interface Behaviour {
  heartbeatSeconds: number;
  bucketSeconds: number;
  /** Seconds over which the whole audience arrives (and, at the end, leaves). */
  rampSeconds: number;
  /** Reactions a viewer sends a second at a burst. */
  reactionsPerViewerSecond: number;
  /** Live analytics heartbeats a viewer sends a second (one per 30 s). */
  analyticsPerViewerSecond: number;
  /** A container rereads what it reuses at most this often. */
  reuseSeconds: number;
}

/**
 * The three moments of an event that load the keys differently:
 * - `bucket start`: every session's first heartbeat of a bucket comes in one heartbeat interval
 *   (counted: it writes the lease and a viewer shard), while the audience still arrives and reacts;
 * - `steady`: the rest of the bucket (heartbeats that write nothing), reactions at a burst;
 * - `departure`: the audience leaves over the ramp (DELETE), heartbeats of those still there.
 */
export const phasesOf = (viewers: number, b: Behaviour): Record<string, Rates> => {
  const beats = viewers / b.heartbeatSeconds;
  const reactions = viewers * b.reactionsPerViewerSecond;
  const analytics = viewers * b.analyticsPerViewerSecond;
  return {
    'bucket start': {
      open: viewers / b.rampSeconds,
      'heartbeat (counted)': beats,
      reaction: reactions,
      'analytics heartbeat': analytics,
    },
    steady: { heartbeat: beats, reaction: reactions, 'analytics heartbeat': analytics },
    departure: { delete: viewers / b.rampSeconds, heartbeat: beats, 'analytics heartbeat': analytics },
  };
};

/** Concurrent executions of each kind: rate × duration (Little's law). */
export const concurrencyOf = (rates: Rates, ops: Record<string, OpProfile>): Record<string, number> =>
  Object.fromEntries(Object.entries(rates).map(([op, rate]) => [op, (rate * (ops[op]?.ms ?? 0)) / 1000]));

/**
 * Units a second of `rate` requests on a family: `units` each, or, for what a container reuses
 * (`cold` given), at most one request's `cold` units per container (at least one) per
 * `reuseSeconds` and per channel, and never more than one per request.
 */
export const reused = (
  rate: number,
  units: number,
  cold: number | undefined,
  concurrency: number,
  behaviour: Behaviour,
  channels = 1,
): number =>
  cold === undefined
    ? rate * units
    : Math.min(rate * cold, (Math.max(1, concurrency) / behaviour.reuseSeconds) * cold * channels);

export interface KeyLoad {
  family: string;
  /** Units a second on the busiest key of the family. */
  rcu: number;
  wcu: number;
  /** Requests a second that touch the family. */
  requests: number;
}

/**
 * Units a second on the busiest key of each family, at `rates` for one channel of `viewers`
 * (`channels` such channels share the functions' containers). A shared family's units spread
 * evenly over its keys (random shards); a per-viewer family's key carries one viewer's share
 * (`rate / viewers`). Reads a container reuses are bounded by the containers doing them (at
 * least one): at most one read of the family (its cold units) per container per `reuseSeconds`,
 * and never more than one per request.
 */
export const keyLoads = (
  rates: Rates,
  ops: Record<string, OpProfile>,
  viewers: number,
  behaviour: Behaviour,
  channels = 1,
): KeyLoad[] => {
  const concurrency = Object.fromEntries(
    Object.entries(concurrencyOf(rates, ops)).map(([op, c]) => [op, c * channels]),
  );
  const loads = new Map<string, KeyLoad>();
  for (const [op, rate] of Object.entries(rates)) {
    const profile = ops[op];
    if (!profile || rate === 0) continue;
    for (const [family, use] of Object.entries(profile.families)) {
      const share = use.perViewer ? 1 / Math.max(1, viewers) : 1 / Math.max(1, use.spread);
      const readShare = use.perViewer ? share : 1 / Math.max(1, use.readSpread ?? use.spread);
      const load = loads.get(family) ?? { family, rcu: 0, wcu: 0, requests: 0 };
      load.rcu += reused(rate, use.rru, use.coldRru, concurrency[op] ?? 0, behaviour) * readShare;
      load.wcu += reused(rate, use.wru, use.coldWru, concurrency[op] ?? 0, behaviour) * share;
      load.requests += rate;
      loads.set(family, load);
    }
  }
  return [...loads.values()].sort((a, b) => b.wcu / 1000 + b.rcu / 3000 - (a.wcu / 1000 + a.rcu / 3000));
};

/** DynamoDB serves a partition 3,000 read units or 1,000 write units a second, "or a linear combination of both". */
export const partitionUse = (load: Pick<KeyLoad, 'rcu' | 'wcu'>) => load.rcu / 3000 + load.wcu / 1000;

/** Table-wide units a second at `rates` (every key of every channel). */
export const tableUnits = (
  rates: Rates,
  ops: Record<string, OpProfile>,
  behaviour: Behaviour,
  channels: number,
): { rru: number; wru: number } => {
  const concurrency = concurrencyOf(rates, ops);
  let rru = 0;
  let wru = 0;
  for (const [op, rate] of Object.entries(rates)) {
    const profile = ops[op];
    if (!profile) continue;
    for (const use of Object.values(profile.families)) {
      rru += reused(rate, use.rru, use.coldRru, concurrency[op] ?? 0, behaviour, channels);
      wru += reused(rate, use.wru, use.coldWru, concurrency[op] ?? 0, behaviour, channels);
    }
  }
  return { rru, wru };
};
