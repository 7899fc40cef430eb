/**
 * The cost model (issue 19 item 1, docs/cost.md): what one viewer hour live, one viewer hour on
 * demand and a million browse requests cost at AWS list prices (bench/prices.json), from counts
 * measured here, beside the floor (API Gateway HTTP API + Lambda requests alone).
 *
 * Each journey's requests run through the real handlers in process (as their functions, against
 * DynamoDB Local with the demo catalogue, a simulated clock advancing 30 s per heartbeat). Per
 * request: Lambda billed duration (measured, rounded up to 1 ms) at the route's configured memory,
 * DynamoDB read and write units (ReturnConsumedCapacity, the bench/warm.ts recorder), Firehose
 * records as the sink encodes them (billed per record rounded up to 5 KB), and the bytes the
 * function prints (its request log line and EMF metrics: CloudWatch Logs ingestion). The table
 * stream's records the journey caused that pass the projector's filter (PROJECTED_ENTITIES) are
 * then handed to the projector handler in batches of its mapping's size, and its work is counted
 * the same way. Each journey runs twice; the second (warm containers) is reported.
 *
 * `npx tsx bench/cost.ts` runs it and prints the tables; `npm run bench` calls `runCostBench`
 * (a child process, with its own DynamoDB Local).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyResultV2, DynamoDBRecord } from 'aws-lambda';
import { runAsScript, runChild } from './child.ts';
import { seedLiveTable } from './load.ts';
import type { Call } from './warm.ts';

interface Price {
  usd: number;
}
const prices = JSON.parse(readFileSync(join(import.meta.dirname, 'prices.json'), 'utf8')) as Record<
  string,
  Price & { recordIncrementBytes?: number }
> & { checked: string };
const GB = 1024 ** 3;
const FIREHOSE_INCREMENT = prices.firehosePerGb!.recordIncrementBytes ?? 5120;
const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

/**
 * The least a key read costs on DynamoDB: a GetItem, or each key of a BatchGetItem, consumes 0.5
 * RRU (1 when strongly consistent) even when the item does not exist (BatchGetItem API reference:
 * "requests for nonexistent items consume the minimum read capacity units"). DynamoDB Local
 * reports nothing for missing items, so a call is counted at no less than this.
 */
const minimumReadUnits = (call: Call): number => {
  const unit = (consistent: unknown) => (consistent ? 1 : 0.5);
  if (call.name === 'GetItemCommand') return unit(call.input.ConsistentRead);
  if (call.name !== 'BatchGetItemCommand') return 0;
  const tables = (call.input.RequestItems ?? {}) as Record<
    string,
    { Keys?: unknown[]; ConsistentRead?: boolean }
  >;
  return Object.values(tables).reduce((sum, t) => sum + (t.Keys?.length ?? 0) * unit(t.ConsistentRead), 0);
};

/** What one invocation used, and its price. */
export interface Usage {
  requests: number;
  invocations: number;
  billedMs: number;
  gbSeconds: number;
  rru: number;
  wru: number;
  logBytes: number;
  firehoseRecords: number;
  firehoseBilledBytes: number;
}
const emptyUsage = (): Usage => ({
  requests: 0,
  invocations: 0,
  billedMs: 0,
  gbSeconds: 0,
  rru: 0,
  wru: 0,
  logBytes: 0,
  firehoseRecords: 0,
  firehoseBilledBytes: 0,
});
const add = (a: Usage, b: Usage): Usage => {
  const out = { ...a };
  for (const k of Object.keys(out) as Array<keyof Usage>) out[k] += b[k];
  return out;
};

/** Dollars by component. `floor`: API Gateway + Lambda requests alone. */
export const dollarsOf = (u: Usage) => {
  const parts = {
    apiGateway: (u.requests * prices.apiGatewayHttpPerMillion!.usd) / 1e6,
    lambdaRequests: (u.invocations * prices.lambdaRequestsPerMillion!.usd) / 1e6,
    lambdaDuration: u.gbSeconds * prices.lambdaArmGbSecond!.usd,
    dynamoReads: (u.rru * prices.dynamoReadRequestUnitsPerMillion!.usd) / 1e6,
    dynamoWrites: (u.wru * prices.dynamoWriteRequestUnitsPerMillion!.usd) / 1e6,
    firehose: (u.firehoseBilledBytes / GB) * prices.firehosePerGb!.usd,
    logs: (u.logBytes / GB) * prices.cloudwatchLogsIngestPerGb!.usd,
  };
  const total = Object.values(parts).reduce((s, v) => s + v, 0);
  return { parts, total, floor: parts.apiGateway + parts.lambdaRequests };
};

/** A step of a journey: one API request. */
interface Step {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  auth?: boolean;
  /** Seconds the simulated clock advances before the request. */
  after?: number;
}

interface StepResult {
  route: string;
  /** DynamoDB commands the request sent, e.g. `GetItem`. */
  commands: string[];
  status: number;
  body: unknown;
  usage: Usage;
  ms: number;
}

export interface JourneyResult {
  name: string;
  unit: string;
  /** How many journeys make the unit (1,000 viewer hours: 1,000; a million browse requests: 1e6 / requests). */
  perUnit: number;
  api: Usage;
  projector: Usage & { records: number };
  total: Usage;
  dollars: ReturnType<typeof dollarsOf>;
  ratio: number;
}

export interface EndpointResult {
  route: string;
  memoryMb: number;
  n: number;
  meanMs: number;
  usage: Usage;
  /** DynamoDB commands per request (mean), by name. */
  commands: Record<string, number>;
  perMillionUsd: number;
  ratio: number;
}

/** The measurement itself, in this process (starts its own DynamoDB Local). */
export const measureCost = async () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // Every rate-limit counter a request writes on AWS is written and priced here (per IP and per
  // account), with the limits as deployed: one viewer's journey stays far below them.
  delete process.env.LOCAL_RATE_LIMITS;
  // Log and metrics output as on Lambda (INFO request lines, EMF metrics), measured, not shown.
  process.env.LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.TABLE_NAME = 'bench-cost';
  const { startDynamoDbLocal } = await import('../scripts/local/dynamodb-local.ts');
  const local = await startDynamoDbLocal();
  (await import('../scripts/local/local-table.ts')).useDynamoDbLocal(local.endpoint);
  try {
    return await measureOn(local.endpoint);
  } finally {
    await local.stop();
  }
};

const measureOn = async (endpoint: string) => {
  const { installLocalAws, useDeploymentSettings, functionContext, runAsFunction } = await import(
    '../scripts/local/aws.ts'
  );
  const { matchRoute, toEvent } = await import('../scripts/local/server.ts');
  const { startTableStream } = await import('../scripts/local/table-stream.ts');
  const { projectorRow } = await import('../functions/workers.ts');
  const { PROJECTED_ENTITIES } = await import('../shared/projection/projector.ts');
  const { STREAM_MAPPING } = await import('../infra/projector.ts');
  const { recordCalls } = await import('./warm.ts');
  const { clock } = await import('../shared/clock.ts');
  const { useSink } = await import('../shared/analytics/sink.ts');
  const { issueAccessToken } = await import('../shared/identity/access-token.ts');
  const { SAMPLE_REQUESTS } = await import('./requests.ts');
  installLocalAws();
  useDeploymentSettings();
  // The live creator watched gets an IVS channel; IVS itself is a stub (bench/load.ts).
  const { tableName, catalog, liveCreator, close: closeIvs } = await seedLiveTable(endpoint, 'benchcost');

  // Firehose: every record the sink is handed, as it would encode it (JSON + newline).
  let firehose: number[] = [];
  useSink({
    put: async (records) => {
      for (const r of records) firehose.push(Buffer.byteLength(`${JSON.stringify(r)}\n`));
    },
  });
  // The stream records that pass the projector's filter, as the event source mapping delivers them.
  let streamed: DynamoDBRecord[] = [];
  const projected = new Set<string>(PROJECTED_ENTITIES);
  const stream = await startTableStream({
    tableName,
    startingPosition: 'LATEST',
    handler: (event) => {
      for (const record of event.Records) {
        const entity = (record.dynamodb?.NewImage ?? record.dynamodb?.OldImage)?.entity?.S;
        if (entity && projected.has(entity)) streamed.push(record);
      }
    },
  });

  /** Bytes written to stdout/stderr while `fn` runs (what CloudWatch Logs would ingest). */
  const printed = async <T>(fn: () => Promise<T>): Promise<{ result: T; bytes: number }> => {
    let bytes = 0;
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const count = (chunk: unknown) => {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).length;
      return true;
    };
    process.stdout.write = count as typeof process.stdout.write;
    process.stderr.write = count as typeof process.stderr.write;
    try {
      return { result: await fn(), bytes };
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
  };

  const unitsOf = (calls: Call[]) => ({
    rru: calls
      .filter((c) => READS.test(c.name))
      .reduce((s, c) => s + Math.max(c.capacity, minimumReadUnits(c)), 0),
    wru: calls.filter((c) => !READS.test(c.name)).reduce((s, c) => s + c.capacity, 0),
  });

  /** Runs `fn` as a function of `memoryMb` and measures what it used. */
  const invoke = async <T>(memoryMb: number, fn: () => Promise<T>) => {
    firehose = [];
    const t = performance.now();
    const { result: recorded, bytes } = await printed(() => recordCalls(fn));
    const ms = performance.now() - t;
    const billedMs = Math.max(1, Math.ceil(ms));
    const usage: Usage = {
      requests: 0,
      invocations: 1,
      billedMs,
      gbSeconds: (billedMs / 1000) * (memoryMb / 1024),
      ...unitsOf(recorded.calls),
      logBytes: bytes,
      firehoseRecords: firehose.length,
      firehoseBilledBytes: firehose.reduce(
        (s, b) => s + Math.ceil(b / FIREHOSE_INCREMENT) * FIREHOSE_INCREMENT,
        0,
      ),
    };
    return {
      result: recorded.result,
      usage,
      ms,
      commands: recorded.calls.map((c) => c.name.replace(/Command$/, '')),
    };
  };

  const handlers = new Map<string, Promise<(event: unknown) => Promise<APIGatewayProxyResultV2>>>();
  const handlerOf = (entry: string) => {
    let loaded = handlers.get(entry);
    if (!loaded) {
      loaded = import(`../functions/${entry}.ts`).then((m) => m.handler);
      handlers.set(entry, loaded);
    }
    return loaded;
  };

  let simulated = Date.now();
  clock.now = () => new Date(simulated);
  let token = '';
  const request = async (step: Step): Promise<StepResult> => {
    simulated += (step.after ?? 0) * 1000;
    const url = new URL(`http://127.0.0.1${step.path}`);
    for (const [k, v] of Object.entries(step.query ?? {})) url.searchParams.set(k, v);
    const match = matchRoute(step.method, url.pathname);
    if (!match) throw new Error(`No route for ${step.method} ${step.path}`);
    const headers: Record<string, string> = {};
    if (step.auth) headers.authorization = `Bearer ${token}`;
    if (step.body !== undefined) headers['content-type'] = 'application/json';
    const event = toEvent(
      {
        method: step.method,
        url,
        headers,
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      },
      match.row,
      match.pathParameters,
    );
    const handler = await handlerOf(match.row.handler);
    const context = functionContext(match.row);
    const memoryMb = match.row.memory?.mb ?? 256;
    const { result, usage, ms, commands } = await invoke(memoryMb, () =>
      runAsFunction(context, () => handler(event)),
    );
    const answer = result as { statusCode?: number; body?: string };
    const status = answer.statusCode ?? 200;
    if (status >= 400)
      throw new Error(`${step.method} ${step.path}: ${status} ${answer.body?.slice(0, 300)}`);
    return {
      route: `${match.row.method} ${match.row.path}`,
      commands,
      status,
      body: answer.body ? JSON.parse(answer.body) : undefined,
      usage: { ...usage, requests: 1 },
      ms,
    };
  };

  /** Hands the journey's filtered stream records to the projector, a mapping batch at a time. */
  const project = async (): Promise<Usage & { records: number }> => {
    await stream.drain();
    const records = streamed;
    streamed = [];
    const { handler } = await import('../functions/projector/project-changes.ts');
    const context = functionContext(projectorRow);
    let usage = emptyUsage();
    for (let i = 0; i < records.length; i += STREAM_MAPPING.batchSize) {
      const Records = records.slice(i, i + STREAM_MAPPING.batchSize);
      const step = await invoke(projectorRow.memory.mb, () =>
        runAsFunction(context, async () => handler({ Records })),
      );
      usage = add(usage, step.usage);
    }
    return { ...usage, records: records.length };
  };

  // The journeys.
  const watch = `/creators/${liveCreator.id}/channel/live/watch`;
  const live = async (): Promise<StepResult[]> => {
    const results: StepResult[] = [];
    const opened = await request({
      method: 'POST',
      path: watch,
      auth: true,
      body: {
        channel_id: liveCreator.channel.channel_id,
        device_type: 'web',
        quality: 'auto',
        timezone: 'America/New_York',
      },
    });
    results.push(opened);
    const sessionId = (opened.body as { data: { session: { session_id: string } } }).data.session.session_id;
    for (let beat = 1; beat <= 120; beat++) {
      results.push(
        await request({
          method: 'GET',
          path: `/creators/${liveCreator.id}/channel/live/heartbeat`,
          query: { session_id: sessionId },
          auth: true,
          after: 30,
        }),
      );
      // Two quality changes in the hour (the player's own ABR needs none: it picks renditions).
      if (beat === 40 || beat === 80)
        results.push(
          await request({
            method: 'PATCH',
            path: watch,
            auth: true,
            body: { session_id: sessionId, quality: beat === 40 ? '1080p' : '720p' },
            after: 1,
          }),
        );
    }
    results.push(
      await request({
        method: 'DELETE',
        path: watch,
        query: { session_id: sessionId },
        auth: true,
        after: 5,
      }),
    );
    return results;
  };

  // On demand: one show's episodes back to back for an hour, each its own analytics session.
  const show = catalog.shows.find((s) => {
    const eps = catalog.episodes.filter((e) => e.show_id === s.id && e.access === 'free');
    return eps.reduce((sum, e) => sum + e.duration_seconds, 0) >= 3600;
  })!;
  const showEpisodes = catalog.episodes
    .filter((e) => e.show_id === show.id && e.access === 'free')
    .sort((a, b) => a.season - b.season || a.episode_number - b.episode_number);
  const common = { device_type: 'web', player_name: 'hls.js', player_version: '1.7.4' };
  const onDemand = async (): Promise<StepResult[]> => {
    const results: StepResult[] = [];
    let watched = 0;
    let qualityChanges = 0;
    for (const episode of showEpisodes) {
      if (watched >= 3600) break;
      const started = await request({
        method: 'POST',
        path: '/analytics/video/session/start',
        auth: true,
        body: { ...common, event_id: randomUUID(), content_id: episode.id, position_seconds: 0 },
      });
      results.push(started);
      const sessionId = (started.body as { data: { session_id: string } }).data.session_id;
      const video = { ...common, session_id: sessionId, content_id: episode.id };
      results.push(
        await request({
          method: 'POST',
          path: '/analytics/video/events',
          auth: true,
          body: {
            events: ['playerready', 'play', 'playing'].map((type) => ({
              ...video,
              event_id: randomUUID(),
              type,
              position_seconds: 0,
              client_ts: new Date(simulated).toISOString(),
            })),
          },
        }),
      );
      let position = 0;
      while (position + 30 <= episode.duration_seconds && watched < 3600) {
        position += 30;
        watched += 30;
        results.push(
          await request({
            method: 'POST',
            path: '/analytics/video/session/heartbeat',
            auth: true,
            after: 30,
            body: { ...video, event_id: randomUUID(), position_seconds: position, playing_seconds: 30 },
          }),
        );
        if ((watched === 1200 || watched === 2400) && qualityChanges < 2) {
          qualityChanges++;
          results.push(
            await request({
              method: 'POST',
              path: '/analytics/video/quality',
              auth: true,
              body: {
                ...video,
                event_id: randomUUID(),
                position_seconds: position,
                bitrate_kbps: 4500,
                width: 1920,
                height: 1080,
              },
            }),
          );
        }
      }
      results.push(
        await request({
          method: 'POST',
          path: '/analytics/video/session/end',
          auth: true,
          after: 5,
          body: {
            ...video,
            event_id: randomUUID(),
            position_seconds: position,
            playing_seconds: 5,
            reason: position + 30 > episode.duration_seconds ? 'completed' : 'user_exit',
          },
        }),
      );
    }
    return results;
  };

  // Browsing: a stated mix of 20 requests (bench/requests.ts samples, by name, with weights).
  const BROWSE_MIX: Array<[string, number]> = [
    ['home', 3],
    ['home hero', 1],
    ['home live', 1],
    ['list shows', 2],
    ['new releases', 1],
    ['list creators', 2],
    ['show detail', 3],
    ['creator detail', 2],
    ['search shows', 2],
    ['search creators', 1],
    ['categories', 1],
    ['schedule current', 1],
  ];
  const browse = async (): Promise<StepResult[]> => {
    const results: StepResult[] = [];
    for (const [name, weight] of BROWSE_MIX) {
      const sample = SAMPLE_REQUESTS.find((s) => s.name === name);
      if (!sample) throw new Error(`No sample request named ${name} in bench/requests.ts`);
      for (let i = 0; i < weight; i++)
        results.push(
          await request({
            method: 'GET',
            path: sample.path,
            query: sample.query,
            auth: sample.auth,
            after: 5,
          }),
        );
    }
    return results;
  };

  const journeys = [
    { name: 'live, one viewer hour', unit: '1,000 viewer hours', run: live, perUnit: () => 1000 },
    { name: 'on demand, one viewer hour', unit: '1,000 viewer hours', run: onDemand, perUnit: () => 1000 },
    { name: 'browse, 20 requests', unit: '1 million requests', run: browse, perUnit: (n: number) => 1e6 / n },
  ];
  const results: JourneyResult[] = [];
  const steps: StepResult[] = [];
  for (const journey of journeys) {
    let last: { steps: StepResult[]; projector: Usage & { records: number } } | undefined;
    for (let run = 0; run < 2; run++) {
      token = (await issueAccessToken(`acc_cost_${randomUUID().slice(0, 8)}`, new Date(simulated))).token;
      const ran = await journey.run();
      last = { steps: ran, projector: await project() };
      simulated += 600_000; // ten quiet minutes between runs: every session and bucket of the last is over
    }
    const api = last!.steps.reduce((u, s) => add(u, s.usage), emptyUsage());
    const perUnit = journey.perUnit(api.requests);
    const scale = (u: Usage): Usage =>
      Object.fromEntries(Object.entries(u).map(([k, v]) => [k, v * perUnit])) as unknown as Usage;
    const total = add(api, last!.projector);
    const dollars = dollarsOf(scale(total));
    results.push({
      name: journey.name,
      unit: journey.unit,
      perUnit,
      api,
      projector: last!.projector,
      total,
      dollars,
      ratio: dollars.total / dollars.floor,
    });
    steps.push(...last!.steps);
  }
  await stream.stop();
  closeIvs();

  const byRoute = new Map<string, StepResult[]>();
  for (const s of steps) byRoute.set(s.route, [...(byRoute.get(s.route) ?? []), s]);
  const endpoints: EndpointResult[] = [...byRoute].map(([route, list]) => {
    const usage = list.reduce((u, s) => add(u, s.usage), emptyUsage());
    const d = dollarsOf(usage);
    const match = matchRoute(route.split(' ')[0]!, route.split(' ')[1]!.replace(/\{[^}]+\}/g, 'x'));
    const commands: Record<string, number> = {};
    for (const name of list.flatMap((x) => x.commands))
      commands[name] = (commands[name] ?? 0) + 1 / list.length;
    return {
      route,
      commands,
      memoryMb: match?.row.memory?.mb ?? 256,
      n: list.length,
      meanMs: list.reduce((s, x) => s + x.ms, 0) / list.length,
      usage,
      perMillionUsd: (d.total / list.length) * 1e6,
      ratio: d.total / d.floor,
    };
  });
  return { pricesChecked: prices.checked, journeys: results, endpoints };
};

export type CostResult = Awaited<ReturnType<typeof measureCost>>;

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** The report's section: the journeys' dollars beside the floor, then per endpoint. */
export const costMarkdown = (result: CostResult): string[] => {
  const md = [
    '',
    '## Cost model (bench/cost.ts, prices: bench/prices.json)',
    '',
    `List prices us-east-1 checked ${result.pricesChecked}. Floor: API Gateway HTTP API + Lambda requests alone. Measured in process against DynamoDB Local (second of two runs, warm).`,
    '',
    '| journey | per | requests | total $ | floor $ | ratio | API GW | Lambda req | Lambda GB-s | DynamoDB read | DynamoDB write | Firehose | Logs | RRU / WRU per journey | projector records, invocations, RRU / WRU |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const j of result.journeys) {
    const p = j.dollars.parts;
    md.push(
      `| ${j.name} | ${j.unit} | ${fmt(j.api.requests * j.perUnit, 0)} | ${fmt(j.dollars.total, 3)} | ${fmt(j.dollars.floor, 3)} | ${fmt(j.ratio)} | ${fmt(p.apiGateway, 3)} | ${fmt(p.lambdaRequests, 3)} | ${fmt(p.lambdaDuration, 3)} | ${fmt(p.dynamoReads, 3)} | ${fmt(p.dynamoWrites, 3)} | ${fmt(p.firehose, 3)} | ${fmt(p.logs, 3)} | ${fmt(j.total.rru, 1)} / ${fmt(j.total.wru, 1)} | ${j.projector.records}, ${j.projector.invocations}, ${fmt(j.projector.rru, 1)} / ${fmt(j.projector.wru, 1)} |`,
    );
  }
  md.push(
    '',
    '| endpoint | memory MB | requests | mean ms | billed ms / req | RRU / req | WRU / req | log bytes / req | Firehose records / req | $ per million | ratio to floor | DynamoDB calls / req |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const e of [...result.endpoints].sort((a, b) => b.perMillionUsd - a.perMillionUsd)) {
    const per = (v: number, d = 2) => fmt(v / e.n, d);
    md.push(
      `| ${e.route} | ${e.memoryMb} | ${e.n} | ${fmt(e.meanMs)} | ${per(e.usage.billedMs)} | ${per(e.usage.rru)} | ${per(e.usage.wru)} | ${per(e.usage.logBytes, 0)} | ${per(e.usage.firehoseRecords)} | ${fmt(e.perMillionUsd)} | ${fmt(e.ratio)} | ${Object.entries(
        e.commands,
      )
        .map(([name, n]) => `${name} ${fmt(n, 2)}`)
        .join(', ')} |`,
    );
  }
  return md;
};

/** For bench/run.ts: the measurement in a child process (its own DynamoDB Local and environment). */
export const runCostBench = async () => {
  const result = await runChild<CostResult>('bench/cost.ts');
  return { report: { cost: result }, markdown: costMarkdown(result) };
};

await runAsScript(import.meta.filename, measureCost, costMarkdown);
