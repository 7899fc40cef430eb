/**
 * The capacity plan's simulation (issue 41 item 4, docs/capacity.md).
 *
 * A scaled event runs through the real write paths of a live channel, in process, each request as
 * its function (environment and IAM policy) against DynamoDB Local with the demo catalogue: watch
 * open, heartbeats across a viewer-count bucket boundary (the counted first beat of a bucket and
 * the ones that write nothing), live reactions, live analytics heartbeats and DELETE, for SAMPLE
 * viewers, with the channel's creator item set to the audience of each size (100k, 1M, 10M), so
 * the code chooses the shard counts and creator reuse it would at that size. A recorder on the
 * shared DynamoDB client (bench/warm.ts, ReturnConsumedCapacity) notes every key each call
 * touches and the units it consumed; the event runs twice, once in one warm container and once
 * with a fresh container per request, which tells the reads a container reuses from the rest.
 * bench/capacity-model.ts turns that into per-key read and write units a second at each size, on
 * one channel and over 1,000, beside the quotas, and the cost per 1,000 viewer-hours (the
 * bench/cost.ts price model).
 *
 * `npx tsx bench/capacity.ts` runs it alone and prints the tables; `npm run bench` calls
 * `runCapacityBench` (a child process with its own DynamoDB Local).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import {
  type Behaviour,
  concurrencyOf,
  type FamilyUse,
  keyLoads,
  type OpProfile,
  partitionUse,
  phasesOf,
  type Rates,
  tableUnits,
} from './capacity-model.ts';
import { runAsScript, runChild } from './child.ts';
import { dollarsOf, type Usage } from './cost.ts';
import { seedLiveTable } from './load.ts';
import type { Call } from './warm.ts';

/** Viewers the event is run with (each request's keys are what counts, not their number). */
const SAMPLE = 12;
export const SIZES = [100_000, 1_000_000, 10_000_000] as const;
export const CHANNEL_SPREAD = 1_000;
/** The audience a channel has when an event is spread over CHANNEL_SPREAD channels (at most 10M / 1,000). */
export const SPREAD_SCALE = 10_000;

/** The product's rates (docs/live.md, docs/realtime.md) and the event's plan (docs/capacity.md). */
export const BEHAVIOUR: Behaviour = {
  heartbeatSeconds: 30,
  bucketSeconds: 180,
  rampSeconds: 300,
  reactionsPerViewerSecond: 0.1,
  analyticsPerViewerSecond: 1 / 30,
  reuseSeconds: 5,
};

/**
 * Quotas (defaults, per account and Region unless said; docs/capacity.md cites each). Every one but
 * the per-partition throughput and IVS Chat's token rate can be raised through Service Quotas (or
 * Stripe support).
 */
export const QUOTAS = {
  partitionRcu: 3_000,
  partitionWcu: 1_000,
  tableRru: 40_000,
  tableWru: 40_000,
  lambdaConcurrency: 1_000,
  /** New execution environments per function per second (1,000 every 10 s). */
  lambdaScalingPerSecond: 100,
  apiGatewayRps: 10_000,
  firehoseRecordsPerSecond: 5_000,
  firehoseRequestsPerSecond: 2_000,
  firehoseBytesPerSecond: 5 * 1024 * 1024,
  ivsChatConnections: 50_000,
  ivsChatTokensPerSecond: 200,
  appSyncOutboundPerSecond: 1_000_000,
  appSyncInboundPerSecond: 10_000,
  stripeRequestsPerSecond: 100,
} as const;

/** Plans for what the event adds to the new parts (docs/capacity.md): who chats, subscribes, gets pushes. */
export const PLAN = {
  /** Share of the audience that opens chat (one IVS Chat connection and one chat token on joining). */
  chatShare: 1,
  /** AppSync Events messages a subscriber receives a tick at an event (audience and reactions change every tick). */
  pushKindsPerTick: 2,
  tickSeconds: 5,
  /** Share of a gated channel's arriving audience that subscribes during the ramp, and Stripe calls per purchase. */
  subscribeShare: 0.01,
  stripeCallsPerPurchase: 2,
  /** For the cost per viewer-hour: reactions sent on average (a burst a tenth of the time). */
  averageReactionsPerViewerSecond: 0.01,
} as const;

const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

/** Every key a call named, with its index (`table` or a GSI), in wire form. */
export const keysOf = (call: Pick<Call, 'name' | 'input'>): string[] => {
  const input = call.input as Record<string, any>;
  const pk = (key: Record<string, any> | undefined) => (key?.PK?.S ? `table:${key.PK.S}` : undefined);
  const keys: Array<string | undefined> = [];
  if (input.Key) keys.push(pk(input.Key));
  if (input.Item) keys.push(pk(input.Item));
  for (const table of Object.values<any>(input.RequestItems ?? {})) {
    if (Array.isArray(table))
      for (const w of table) keys.push(pk(w.PutRequest?.Item ?? w.DeleteRequest?.Key));
    else for (const k of table.Keys ?? []) keys.push(pk(k));
  }
  for (const item of input.TransactItems ?? []) {
    const op = item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck ?? item.Get;
    keys.push(pk(op?.Key ?? op?.Item));
  }
  if (input.KeyConditionExpression) {
    const [, attribute, placeholder] =
      /^\s*(\w+)\s*=\s*(:\w+)/.exec(String(input.KeyConditionExpression)) ?? [];
    const value = placeholder ? input.ExpressionAttributeValues?.[placeholder]?.S : undefined;
    if (attribute && value) keys.push(`${input.IndexName ?? 'table'}:${value}`);
  }
  return keys.filter((k): k is string => k !== undefined);
};

/** The family of a key: its numeric segments (buckets, ticks, shards, days) and ids of one viewer made general. */
export const familyOf = (key: string): string =>
  key
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/^(table:RATE#[^#]+)#.*$/, '$1#<caller>')
    .replace(/acc_cap_\d+/g, '<account>')
    .replace(/#\d{4}-\d{2}-\d{2}(?=#|$)/g, '#<day>')
    .replace(/#\d+(?=#|$)/g, '#<n>');

/** The instance of a key's family its shard belongs to: all but the last number kept. */
const instanceOf = (key: string) => key.replace(/#\d+$/, '#<shard>');

interface Touch {
  op: string;
  viewer: number;
  key: string;
  rru: number;
  wru: number;
}

/** Units of a call spread over its keys (DynamoDB Local reports a call's total); a read key costs at least 0.5. */
const touchesOf = (op: string, viewer: number, calls: Call[]): Touch[] =>
  calls.flatMap((call) => {
    const keys = keysOf(call);
    if (keys.length === 0) return [];
    const read = READS.test(call.name);
    const each = call.capacity / keys.length;
    return keys.map((key) => ({
      op,
      viewer,
      key,
      rru: read ? Math.max(each, 0.5) : 0,
      wru: read ? 0 : each,
    }));
  });

export interface CapacityResult {
  sample: number;
  behaviour: Behaviour;
  sizes: SizeResult[];
}

export interface SizeResult {
  viewers: number;
  ops: Record<string, OpProfile>;
  /** Requests per op in the sample (warm pass). */
  counts: Record<string, number>;
  /** Keys of the hottest families: one channel, and spread over CHANNEL_SPREAD channels. */
  oneChannel: PhaseLoad[];
  spread: PhaseLoad[];
  limits: LimitRow[];
  firstLimit: string;
  costPer1000ViewerHours: ReturnType<typeof dollarsOf>;
}

interface PhaseLoad {
  phase: string;
  family: string;
  rcu: number;
  wcu: number;
  use: number;
}

export interface LimitRow {
  limit: string;
  quota: number;
  oneChannel: number;
  spread: number;
  /** Demand over quota, the larger of the two layouts. */
  ratio: number;
  moves: string;
}

/** The measurement itself (starts its own DynamoDB Local). */
export const measureCapacity = async (): Promise<CapacityResult> => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // The rate-limit counters every request writes on AWS (per account and per IP) are written and
  // counted here, with the limits as deployed (a viewer's requests stay far below them).
  delete process.env.LOCAL_RATE_LIMITS;
  process.env.LOG_LEVEL = 'ERROR';
  process.env.TABLE_NAME = 'bench-capacity';
  const { startDynamoDbLocal } = await import('../scripts/local/dynamodb-local.ts');
  const local = await startDynamoDbLocal();
  (await import('../scripts/local/local-table.ts')).useDynamoDbLocal(local.endpoint);
  try {
    return await measureOn(local.endpoint);
  } finally {
    await local.stop();
  }
};

const measureOn = async (endpoint: string): Promise<CapacityResult> => {
  const { UpdateItemCommand } = await import('@aws-sdk/client-dynamodb');
  const { installLocalAws, useDeploymentSettings, functionContext, runAsFunction } = await import(
    '../scripts/local/aws.ts'
  );
  const { installContainerId } = await import('../shared/aws/local-hook.ts');
  const { matchRoute, toEvent } = await import('../scripts/local/server.ts');
  const { recordCalls } = await import('./warm.ts');
  const { clock } = await import('../shared/clock.ts');
  const { useSink } = await import('../shared/analytics/sink.ts');
  const { issueAccessToken } = await import('../shared/identity/access-token.ts');
  const { publishTick } = await import('../shared/realtime/tick.ts');
  const { BUCKET_SECONDS } = await import('../shared/audience/viewer-counter.ts');
  installLocalAws();
  useDeploymentSettings();
  // The live creator watched gets an IVS channel; IVS itself is a stub (bench/load.ts).
  const {
    admin,
    tableName,
    seededAt,
    liveCreator: creator,
    close: closeIvs,
  } = await seedLiveTable(endpoint, 'benchcapacity', { streamAfter: false });

  let firehose: number[] = [];
  useSink({
    put: async (records) => {
      for (const r of records) firehose.push(Buffer.byteLength(`${JSON.stringify(r)}\n`));
    },
  });
  let container = 'warm';
  installContainerId(() => container);

  const handlers = new Map<string, Promise<(event: unknown) => Promise<APIGatewayProxyResultV2>>>();
  const handlerOf = (entry: string) => {
    let loaded = handlers.get(entry);
    if (!loaded) {
      loaded = import(`../functions/${entry}.ts`).then((m) => m.handler);
      handlers.set(entry, loaded);
    }
    return loaded;
  };

  let simulated = 0;
  clock.now = () => new Date(simulated);
  interface Done {
    op: string;
    body: any;
    touches: Touch[];
    ms: number;
    memoryMb: number;
    firehose: number[];
  }
  const request = async (
    viewer: number,
    token: string,
    op: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<Done> => {
    const url = new URL(`http://127.0.0.1${path}`);
    const match = matchRoute(method, url.pathname);
    if (!match) throw new Error(`No route for ${method} ${path}`);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const event = toEvent(
      {
        method,
        url,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        // Each viewer from an address of its own, as an audience is: its per-IP counters are its own.
        sourceIp: `10.${(viewer >> 16) & 255}.${(viewer >> 8) & 255}.${viewer & 255}`,
      },
      match.row,
      match.pathParameters,
    );
    const handler = await handlerOf(match.row.handler);
    firehose = [];
    const t = performance.now();
    const { result, calls } = await recordCalls(() =>
      runAsFunction(functionContext(match.row), () => handler(event)),
    );
    const ms = performance.now() - t;
    const answer = result as { statusCode?: number; body?: string };
    if ((answer.statusCode ?? 200) >= 300)
      throw new Error(`${op} ${method} ${path}: ${answer.statusCode} ${answer.body?.slice(0, 300)}`);
    const touches = touchesOf(op, viewer, calls);
    // A heartbeat that claimed its bucket wrote a viewer shard: the counted kind.
    const kind =
      op === 'heartbeat' && touches.some((t) => t.wru > 0 && t.key.startsWith('table:VIEWERS#'))
        ? 'heartbeat (counted)'
        : op;
    for (const touch of touches) touch.op = kind;
    return {
      op: kind,
      body: answer.body ? JSON.parse(answer.body) : undefined,
      touches,
      ms,
      memoryMb: match.row.memory?.mb ?? 256,
      firehose,
    };
  };

  const tokens = await Promise.all(
    Array.from({ length: SAMPLE }, async (_, i) => (await issueAccessToken(`acc_cap_${i}`, seededAt)).token),
  );
  const base = `/creators/${creator.id}/channel/live`;
  const analytics = { device_type: 'web', channel_id: creator.channel.channel_id };

  /** The event for SAMPLE viewers: opens, 8 heartbeats across a bucket boundary, reactions, analytics, DELETE. */
  const runEvent = async (fresh: boolean): Promise<Done[]> => {
    const done: Done[] = [];
    const run = async (
      viewer: number,
      op: string,
      method: 'GET' | 'POST' | 'DELETE',
      path: string,
      body?: unknown,
    ) => {
      if (fresh) container = `cold-${randomUUID()}`;
      const result = await request(viewer, tokens[viewer]!, op, method, path, body);
      done.push(result);
      return result;
    };
    // Start 100 s before a bucket ends: the fourth heartbeat is the first of the next bucket.
    const bucketMs = BUCKET_SECONDS * 1000;
    simulated = (Math.floor(seededAt.getTime() / bucketMs) + 1) * bucketMs - 100_000;
    const sessions: string[] = [];
    const analyticsSessions: string[] = [];
    for (let v = 0; v < SAMPLE; v++) {
      simulated += 50;
      const opened = await run(v, 'open', 'POST', `${base}/watch`, {
        channel_id: creator.channel.channel_id,
        device_type: 'web',
        quality: 'auto',
        timezone: 'UTC',
      });
      sessions.push(opened.body.data.session.session_id);
      const started = await run(v, 'analytics start', 'POST', '/analytics/live/session/start', {
        ...analytics,
        event_id: randomUUID(),
        client_ts: new Date(simulated).toISOString(),
      });
      analyticsSessions.push(started.body.data.session_id);
    }
    for (let beat = 1; beat <= 8; beat++) {
      simulated += 30_000 - SAMPLE * 50;
      for (let v = 0; v < SAMPLE; v++) {
        simulated += 50;
        await run(v, 'heartbeat', 'GET', `${base}/heartbeat?session_id=${sessions[v]}`);
        await run(v, 'reaction', 'POST', `${base}/reactions`, { emoji: '🔥' });
        await run(v, 'analytics heartbeat', 'POST', '/analytics/live/session/heartbeat', {
          ...analytics,
          session_id: analyticsSessions[v],
          playing_seconds: 30,
          event_id: randomUUID(),
          client_ts: new Date(simulated).toISOString(),
        });
      }
    }
    for (let v = 0; v < SAMPLE; v++) {
      simulated += 50;
      await run(v, 'delete', 'DELETE', `${base}/watch?session_id=${sessions[v]}`);
    }
    return done;
  };

  /** Reads of every shard of one instance (a tick's reactions, a bucket's counts): how far a family spreads. */
  const spreadsOf = (touches: Touch[]) => {
    const perInstance = new Map<string, Set<string>>();
    for (const t of touches) {
      const instance = `${familyOf(t.key)}|${instanceOf(t.key)}`;
      const keys = perInstance.get(instance) ?? new Set<string>();
      keys.add(t.key);
      perInstance.set(instance, keys);
    }
    const spreads = new Map<string, number>();
    for (const [instance, keys] of perInstance) {
      const family = instance.split('|')[0]!;
      spreads.set(family, Math.max(spreads.get(family) ?? 1, keys.size));
    }
    return spreads;
  };

  const profiles = new Map<number, { ops: Record<string, OpProfile>; counts: Record<string, number> }>();
  for (const viewers of [SPREAD_SCALE, ...SIZES]) {
    // The channel as the audience publisher leaves it at this size: its count and its peak.
    await admin.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: { PK: { S: `CREATOR#${creator.id}` }, SK: { S: 'PROFILE' } },
        UpdateExpression: 'SET watching_now = :n, peak_all_time = :n',
        ExpressionAttributeValues: { ':n': { N: String(viewers) } },
      }),
    );
    container = `warm-${viewers}`;
    const warm = await runEvent(false);
    const cold = await runEvent(true);
    // The tick reads every reaction shard of a tick once: what shows how far the reactions spread.
    container = `tick-${viewers}`;
    const tick = await recordCalls(() => publishTick(new Date(simulated), { publish: async () => ({}) }));
    const allTouches = [...warm, ...cold].flatMap((d) => d.touches);
    const spreads = spreadsOf([...allTouches, ...touchesOf('tick', -1, tick.calls)]);
    const sharedFamilies = new Set<string>();
    const touchedBy = new Map<string, Set<number>>();
    for (const t of allTouches) {
      const viewersOfKey = touchedBy.get(t.key) ?? new Set<number>();
      viewersOfKey.add(t.viewer);
      touchedBy.set(t.key, viewersOfKey);
      if (viewersOfKey.size > 1) sharedFamilies.add(familyOf(t.key));
    }
    const profile = (runs: Done[]) => {
      const byOp = new Map<string, Done[]>();
      for (const d of runs) byOp.set(d.op, [...(byOp.get(d.op) ?? []), d]);
      return byOp;
    };
    const warmByOp = profile(warm);
    const coldByOp = profile(cold);
    const ops: Record<string, OpProfile> = {};
    const counts: Record<string, number> = {};
    for (const [op, runs] of warmByOp) {
      counts[op] = runs.length;
      const perRequest = (list: Done[], pick: 'rru' | 'wru') => {
        const sums = new Map<string, number>();
        for (const d of list)
          for (const t of d.touches) sums.set(familyOf(t.key), (sums.get(familyOf(t.key)) ?? 0) + t[pick]);
        return new Map([...sums].map(([f, s]) => [f, s / Math.max(1, list.length)]));
      };
      const rru = perRequest(runs, 'rru');
      const wru = perRequest(runs, 'wru');
      const coldRuns = coldByOp.get(op) ?? [];
      const coldRru = perRequest(coldRuns, 'rru');
      const coldWru = perRequest(coldRuns, 'wru');
      // The most keys of a family one request read (a counts read covers two buckets' shards).
      const readSpread = new Map<string, number>();
      for (const d of [...runs, ...coldRuns]) {
        const keys = new Map<string, Set<string>>();
        for (const t of d.touches.filter((t) => t.rru > 0)) {
          const set = keys.get(familyOf(t.key)) ?? new Set<string>();
          set.add(t.key);
          keys.set(familyOf(t.key), set);
        }
        for (const [f, set] of keys) readSpread.set(f, Math.max(readSpread.get(f) ?? 1, set.size));
      }
      const families: Record<string, FamilyUse> = {};
      for (const family of new Set([...rru.keys(), ...wru.keys(), ...coldRru.keys()])) {
        const warmReads = rru.get(family) ?? 0;
        const coldReads = coldRru.get(family) ?? warmReads;
        const warmWrites = wru.get(family) ?? 0;
        const coldWrites = coldWru.get(family) ?? warmWrites;
        const shared = sharedFamilies.has(family);
        families[family] = {
          rru: warmReads,
          wru: warmWrites,
          spread: shared ? (spreads.get(family) ?? 1) : 1,
          readSpread: shared ? (readSpread.get(family) ?? 1) : 1,
          perViewer: !shared,
          // What the warm container did far less often than fresh ones is what a container reuses.
          ...(shared && coldReads > 1.5 * warmReads ? { coldRru: coldReads } : {}),
          ...(shared && coldWrites > 1.5 * warmWrites ? { coldWru: coldWrites } : {}),
        };
      }
      const records = runs.flatMap((d) => d.firehose);
      ops[op] = {
        op,
        ms: runs.reduce((s, d) => s + d.ms, 0) / runs.length,
        memoryMb: runs[0]!.memoryMb,
        firehoseRecords: records.length / runs.length,
        firehoseBytes: records.reduce((s, b) => s + b, 0) / runs.length,
        families,
      };
    }
    profiles.set(viewers, { ops, counts });
  }
  const spreadOps = profiles.get(SPREAD_SCALE)!.ops;
  const sizes = SIZES.map((viewers) => {
    const { ops, counts } = profiles.get(viewers)!;
    return planSize(viewers, ops, spreadOps, counts);
  });
  closeIvs();
  return { sample: SAMPLE, behaviour: BEHAVIOUR, sizes };
};

/**
 * Peak demand of each phase, one channel of `viewers` (measured with `ops`, the channel at that
 * size) or `viewers` over CHANNEL_SPREAD channels (`spreadOps`, measured on a channel of at most
 * SPREAD_SCALE viewers: the same shards and no reuse as any channel of 1,000 or 10,000).
 */
export const planSize = (
  viewers: number,
  ops: Record<string, OpProfile>,
  spreadOps: Record<string, OpProfile> = ops,
  counts: Record<string, number> = {},
): SizeResult => {
  const phases = phasesOf(viewers, BEHAVIOUR);
  const opsOf = (channels: number) => (channels === 1 ? ops : spreadOps);
  const hottest = (channels: number): PhaseLoad[] =>
    Object.entries(phases).flatMap(([phase, rates]) => {
      const perChannel = Object.fromEntries(Object.entries(rates).map(([op, r]) => [op, r / channels]));
      return keyLoads(perChannel, opsOf(channels), viewers / channels, BEHAVIOUR, channels)
        .filter((l) => !l.family.includes('<account>') && !l.family.includes('<uuid>'))
        .slice(0, 4)
        .map((l) => ({ phase, family: l.family, rcu: l.rcu, wcu: l.wcu, use: partitionUse(l) }));
    });
  const oneChannel = hottest(1);
  const spread = hottest(CHANNEL_SPREAD);
  const worst = (rows: PhaseLoad[]) => Math.max(0, ...rows.map((r) => r.use));
  const peak = <T>(f: (rates: Rates) => T, pick: (t: T) => number) =>
    Math.max(...Object.values(phases).map((rates) => pick(f(rates))));
  const requests = peak(
    (rates) => rates,
    (rates) => Object.values(rates).reduce((s, r) => s + r, 0),
  );
  const concurrency = (channels: number) =>
    peak(
      (rates) => concurrencyOf(rates, opsOf(channels)),
      (c) => Object.values(c).reduce((s, x) => s + x, 0),
    );
  // The busiest function's concurrency, reached over the ramp: new environments a second.
  const scaling = (channels: number) =>
    Math.max(
      ...Object.values(phases).flatMap((rates) => Object.values(concurrencyOf(rates, opsOf(channels)))),
    ) / BEHAVIOUR.rampSeconds;
  const units = (channels: number) =>
    Object.values(phases).map((rates) => tableUnits(rates, opsOf(channels), BEHAVIOUR, channels));
  const rru = (channels: number) => Math.max(...units(channels).map((u) => u.rru));
  const wru = (channels: number) => Math.max(...units(channels).map((u) => u.wru));
  const layouts = (f: (channels: number) => number) => ({ oneChannel: f(1), spread: f(CHANNEL_SPREAD) });
  const analyticsRate = viewers * BEHAVIOUR.analyticsPerViewerSecond;
  const firehose = ops['analytics heartbeat'];
  const both = (x: number) => ({ oneChannel: x, spread: x });
  const row = (
    limit: string,
    quota: number,
    values: { oneChannel: number; spread: number },
    moves: string,
  ) => ({
    limit,
    quota,
    ...values,
    ratio: Math.max(values.oneChannel, values.spread) / quota,
    moves,
  });
  const limits: LimitRow[] = [
    row(
      'DynamoDB: busiest partition (share of 3,000 RCU / 1,000 WCU)',
      1,
      { oneChannel: worst(oneChannel), spread: worst(spread) },
      'not adjustable: more shards (shared/audience/audience-scale.ts) or reuse per container',
    ),
    row(
      'DynamoDB on-demand table: read units/s',
      QUOTAS.tableRru,
      layouts(rru),
      'Service Quotas (table-level read throughput); warm the table (double the previous peak within 30 min)',
    ),
    row(
      'DynamoDB on-demand table: write units/s',
      QUOTAS.tableWru,
      layouts(wru),
      'Service Quotas (table-level write throughput); warm the table',
    ),
    row(
      'Lambda: concurrent executions',
      QUOTAS.lambdaConcurrency,
      layouts(concurrency),
      'Service Quotas (account concurrency)',
    ),
    row(
      'Lambda: new environments per function per second',
      QUOTAS.lambdaScalingPerSecond,
      layouts(scaling),
      'not adjustable: a slower ramp, or provisioned concurrency for the heartbeat and open',
    ),
    row(
      'API Gateway: requests/s (account throttle)',
      QUOTAS.apiGatewayRps,
      both(requests),
      'Service Quotas (throttle quota per account and Region)',
    ),
    row(
      'Firehose: records/s per stream',
      QUOTAS.firehoseRecordsPerSecond,
      both(analyticsRate * (firehose?.firehoseRecords ?? 1)),
      'Service Quotas / Firehose limits form; or batch analytics heartbeats in the client',
    ),
    row(
      'Firehose: MB/s per stream',
      QUOTAS.firehoseBytesPerSecond / 1e6,
      both((analyticsRate * (firehose?.firehoseBytes ?? 0)) / 1e6),
      'Firehose limits form',
    ),
    row(
      'IVS Chat: concurrent connections',
      QUOTAS.ivsChatConnections,
      both(viewers * PLAN.chatShare),
      'Service Quotas (concurrent chat connections)',
    ),
    row(
      'IVS Chat: CreateChatToken/s',
      QUOTAS.ivsChatTokensPerSecond,
      both((viewers * PLAN.chatShare) / BEHAVIOUR.rampSeconds),
      'not adjustable: chat tokens only for viewers who open chat, spread the joins',
    ),
    row(
      'AppSync Events: outbound messages/s',
      QUOTAS.appSyncOutboundPerSecond,
      both((viewers * PLAN.pushKindsPerTick) / PLAN.tickSeconds),
      'Service Quotas (outbound messages), fewer kinds per tick on big channels',
    ),
    row(
      'AppSync Events: inbound publishes/s',
      QUOTAS.appSyncInboundPerSecond,
      { oneChannel: 1 / PLAN.tickSeconds, spread: CHANNEL_SPREAD / PLAN.tickSeconds },
      'Service Quotas',
    ),
    row(
      'Stripe: API requests/s (live mode)',
      QUOTAS.stripeRequestsPerSecond,
      both((viewers * PLAN.subscribeShare * PLAN.stripeCallsPerPurchase) / BEHAVIOUR.rampSeconds),
      'Stripe support, 6 weeks ahead',
    ),
  ];
  const first = [...limits].sort((a, b) => b.ratio - a.ratio)[0]!;
  return {
    viewers,
    ops,
    counts,
    oneChannel,
    spread,
    limits,
    firstLimit:
      first.ratio >= 1 ? first.limit : `none (highest: ${first.limit}, ${(first.ratio * 100).toFixed(0)}%)`,
    costPer1000ViewerHours: costOf(ops, viewers),
  };
};

/**
 * 1,000 viewer-hours of our back end at this size (API Gateway, Lambda, DynamoDB, Firehose; IVS's
 * video output and CloudWatch Logs are in bench/cost.ts and docs/live.md): per viewer-hour 120
 * heartbeats (20 counted), 120 analytics heartbeats, one open, one DELETE, one analytics start and
 * reactions at the average rate, each with its measured units; reads a container reuses at the
 * rate the audience's containers make them.
 */
export const costOf = (ops: Record<string, OpProfile>, viewers: number) => {
  const perHour: Rates = {
    heartbeat: 100,
    'heartbeat (counted)': 20,
    'analytics heartbeat': 120,
    open: 1,
    delete: 1,
    'analytics start': 1,
    reaction: PLAN.averageReactionsPerViewerSecond * 3600,
  };
  const usage: Usage = {
    requests: 0,
    invocations: 0,
    billedMs: 0,
    gbSeconds: 0,
    rru: 0,
    wru: 0,
    logBytes: 0,
    firehoseRecords: 0,
    firehoseBilledBytes: 0,
  };
  // Reused reads: one per container per 5 s, with the containers of a steady audience of `viewers`.
  const steady = phasesOf(viewers, BEHAVIOUR).steady!;
  const containers = concurrencyOf(steady, ops);
  for (const [op, n] of Object.entries(perHour)) {
    const profile = ops[op];
    if (!profile) continue;
    const requests = n * 1000;
    const billedMs = Math.max(1, Math.ceil(profile.ms));
    usage.requests += requests;
    usage.invocations += requests;
    usage.billedMs += requests * billedMs;
    usage.gbSeconds += requests * (billedMs / 1000) * (profile.memoryMb / 1024);
    for (const use of Object.values(profile.families)) {
      const rate = steady[op] ?? 0;
      const reuse =
        (use.coldRru !== undefined || use.coldWru !== undefined) && rate > 0
          ? Math.min(1, Math.max(1, containers[op] ?? 0) / BEHAVIOUR.reuseSeconds / rate)
          : 1;
      usage.rru += requests * (use.coldRru === undefined ? use.rru : use.coldRru * reuse);
      usage.wru += requests * (use.coldWru === undefined ? use.wru : use.coldWru * reuse);
    }
    usage.firehoseRecords += requests * profile.firehoseRecords;
    usage.firehoseBilledBytes += requests * profile.firehoseRecords * 5120;
  }
  return dollarsOf(usage);
};

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';

/** The report's section. */
export const capacityMarkdown = (result: CapacityResult): string[] => {
  const md = [
    '',
    '## Capacity at internet scale (bench/capacity.ts, docs/capacity.md)',
    '',
    `The real write paths (watch open, heartbeats across a bucket boundary, live reactions, live analytics heartbeats, DELETE) run for ${result.sample} viewers against DynamoDB Local with the channel's creator item at each size (so the code picks that size's shards and reuse), once in a warm container and once with a fresh container per request; per-key units from ReturnConsumedCapacity. Rates: heartbeat every ${result.behaviour.heartbeatSeconds} s, bucket ${result.behaviour.bucketSeconds} s, the audience arriving and leaving over ${result.behaviour.rampSeconds} s, ${result.behaviour.reactionsPerViewerSecond} reactions per viewer a second at a burst.`,
    '',
    '| viewers | first limit reached | busiest key, one channel (phase: RCU/s, WCU/s, share of the partition) | busiest key over 1,000 channels | back end $ per 1,000 viewer-hours |',
    '|---|---|---|---|---|',
  ];
  for (const size of result.sizes) {
    const top = (rows: PhaseLoad[]) => {
      const r = [...rows].sort((a, b) => b.use - a.use)[0];
      return r ? `\`${r.family}\` (${r.phase}: ${fmt(r.rcu)}, ${fmt(r.wcu)}, ${fmt(r.use * 100)}%)` : '-';
    };
    md.push(
      `| ${fmt(size.viewers)} | ${size.firstLimit} | ${top(size.oneChannel)} | ${top(size.spread)} | ${fmt(size.costPer1000ViewerHours.total, 2)} |`,
    );
  }
  for (const size of result.sizes) {
    md.push(
      '',
      `### ${fmt(size.viewers)} concurrent viewers`,
      '',
      '| limit | quota | one channel | 1,000 channels | demand / quota | what moves it |',
      '|---|---|---|---|---|---|',
      ...[...size.limits]
        .sort((a, b) => b.ratio - a.ratio)
        .map(
          (l) =>
            `| ${l.limit} | ${fmt(l.quota, l.quota < 10 ? 2 : 0)} | ${fmt(l.oneChannel, l.oneChannel < 10 ? 2 : 0)} | ${fmt(l.spread, l.spread < 10 ? 2 : 0)} | ${fmt(l.ratio * 100)}% | ${l.moves} |`,
        ),
      '',
      '| phase | key family (one channel) | RCU/s per key | WCU/s per key | share of a partition |',
      '|---|---|---|---|---|',
      ...size.oneChannel.map(
        (r) => `| ${r.phase} | \`${r.family}\` | ${fmt(r.rcu)} | ${fmt(r.wcu)} | ${fmt(r.use * 100)}% |`,
      ),
    );
  }
  return md;
};

/** For bench/run.ts: the simulation in a child process (its own DynamoDB Local and environment). */
export const runCapacityBench = async () => {
  const result = await runChild<CapacityResult>('bench/capacity.ts');
  return { report: { capacity: result }, markdown: capacityMarkdown(result) };
};

await runAsScript(import.meta.filename, measureCapacity, capacityMarkdown);
