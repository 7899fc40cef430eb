/**
 * Projections in the bench (issue 16, item 7): freshness, the projector's cost per change, and
 * the rebuild, each at 1x and 10x catalogue.
 *
 * `npx tsx bench/projection.ts` runs both scales (each in a child process: the shared DynamoDB
 * client is bound to one DynamoDB Local per process) and prints the report;
 * `npx tsx bench/projection.ts --scale 1|10` runs one scale in process. `npm run bench` calls
 * `runProjectionBench` (bench/run.ts).
 *
 * - Freshness: writes through the local HTTP API (real handlers, the projector on the table's
 *   stream as `npm start` runs it), one at a time; from the write's 2xx, every affected endpoint
 *   is polled every 25 ms until each shows the change. Also when the projector's last DynamoDB
 *   call for the change ended ("projector done"), and, for a separate sample, when
 *   `platform.drain()` resolved when called right after the 2xx.
 * - Cost: the capacity units of every DynamoDB call the projector makes (ReturnConsumedCapacity
 *   on the shared client, counted only inside the projector function), per change: the platform
 *   is drained between writes and nothing else writes meanwhile.
 * - Rebuild: `rebuildViews({ dryRun: true })` then `rebuildViews()` after the writes (it should
 *   repair nothing: the projector kept every view), wall time and items scanned.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runChild } from './child.ts';
import { loadWithoutStream } from './load.ts';

const KINDS = [
  'onboarding',
  'profile edit',
  'show create',
  'episode create',
  'program create',
  'subscribe',
  'view',
] as const;
type Kind = (typeof KINDS)[number];
/** The kinds whose projector cost the issue asks to compare at 1x and 10x. */
const COST_KINDS: readonly Kind[] = [
  'subscribe',
  'profile edit',
  'show create',
  'view',
  'onboarding',
  'episode create',
];
const CATEGORIES = ['music', 'comedy', 'gaming', 'education', 'sports', 'lifestyle'] as const;
const TIMEOUT_MS = 15_000;
const POLL_MS = 25;

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}
export interface ScaleResult {
  scale: number;
  items: number;
  startSeconds: number;
  /** The table was loaded by the warm and growth part (startSeconds: the stream and API only). */
  reused?: boolean;
  /** ms from 2xx to every endpoint showing the change, per kind and overall. */
  freshness: Record<string, Percentiles & { endpoints: string[]; timeouts: number }>;
  /** ms from 2xx to the end of the projector's last DynamoDB call for the change. */
  projectorDone: Record<string, Percentiles>;
  /** ms from 2xx to drain() resolved (called right after the 2xx), separate sample. */
  drainLag: Percentiles;
  /** Mean capacity units the projector consumed per change, per kind. */
  cost: Record<
    string,
    { read: number; write: number; calls: number; n: number; byCommand?: Record<string, number> }
  >;
  rebuild?: {
    dryRunMs: number;
    ms: number;
    scanned: number;
    sources: number;
    views: number;
    put: number;
    deleted: number;
  };
}

const percentiles = (values: number[]): Percentiles => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { n: values.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
};
// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely, as the tests do
type Json = any;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const word = () =>
  `zq${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 8)}`;

/** A table the parent already loaded with the catalogue (bench/server-bench.ts), on its DynamoDB Local. */
export interface LoadedTable {
  endpoint: string;
  table: string;
  items: number;
}

/**
 * The local platform as scripts/local/platform.ts starts it (DynamoDB Local, the seeded table,
 * the projector handler on the table's stream, run as its function), except that at 10x the EPG
 * programs are not loaded, as in bench/server-bench.ts: nothing projects them, and 10x of them
 * would take minutes to load on this machine. Given a `loaded` table (`npm run bench`: the one
 * the warm and growth part loaded with the same catalogue), it uses that table on its DynamoDB
 * Local instead of starting one and loading it again (the 10x load is most of the bench's time).
 */
const startBenchPlatform = async (scale: number, loaded?: LoadedTable) => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.TABLE_NAME = loaded?.table ?? `bench-projection-s${scale}`;
  const { freePort, startDynamoDbLocal } = await import('../scripts/local/dynamodb-local.ts');
  const port = loaded ? undefined : await freePort();
  (await import('../scripts/local/local-table.ts')).useDynamoDbLocal(
    loaded?.endpoint ?? `http://127.0.0.1:${port}`,
  );
  const local = loaded ? { stop: async () => {} } : await startDynamoDbLocal({ port });
  // Subscriptions are paid (issue 36): the Stripe stand-in, as the local platform starts it
  // (STRIPE_API_URL and the Stripe secret set before any function context is derived); and the
  // SES stand-in, which sign-up's verification mail goes to (its mailbox in a temporary folder).
  const { startStripeStandIn } = await import('../scripts/local/stripe/server.ts');
  const { useStripeStandIn } = await import('../scripts/local/stripe/wiring.ts');
  const { startSesStandIn } = await import('../scripts/local/ses.ts');
  const stripe = await startStripeStandIn();
  useStripeStandIn(stripe);
  const mailbox = mkdtempSync(join(tmpdir(), 'bench-mail-'));
  const ses = await startSesStandIn({ dir: () => mailbox });
  process.env.AWS_ENDPOINT_URL_SESV2 = ses.endpoint;
  const stopStandIns = async () => {
    await stripe.stop();
    await ses.stop();
    rmSync(mailbox, { recursive: true, force: true });
  };
  try {
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const { createTable } = await import('../shared/db/create-table.ts');
    const { generateCatalog } = await import('../scripts/seed/generate.ts');
    const { loadCatalog } = await import('../scripts/seed/load.ts');
    const { installLocalAws, functionContext, runAsFunction } = await import('../scripts/local/aws.ts');
    const { startTableStream } = await import('../scripts/local/table-stream.ts');
    const { projectorRow } = await import('../functions/workers.ts');
    const { handler } = await import('../functions/projector/project-changes.ts');
    let items = loaded?.items ?? 0;
    if (!loaded) {
      const admin = new DynamoDBClient({
        endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      await createTable(admin, process.env.TABLE_NAME);
      const now = new Date();
      const catalog = generateCatalog({ now, seed: 42, scale });
      ({ items } = await loadWithoutStream(admin, process.env.TABLE_NAME, () =>
        loadCatalog(scale === 1 ? catalog : { ...catalog, programs: [] }, now),
      ));
    }
    installLocalAws();
    const context = functionContext(projectorRow);
    const stream = await startTableStream({
      tableName: process.env.TABLE_NAME,
      handler: (event) => runAsFunction(context, () => handler(event)),
      startingPosition: 'LATEST',
      maxRetries: 5,
    });
    return {
      items,
      stripe,
      drain: () => stream.drain(),
      stop: async () => {
        await stream.stop();
        await stopStandIns();
        await local.stop();
      },
    };
  } catch (error) {
    await stopStandIns();
    await local.stop();
    throw error;
  }
};

/**
 * The rebuild at 10x is the dry run only, to keep the bench short: each Scan of the 10x table
 * takes about 2 minutes on DynamoDB Local here (docs/performance.md), and the repairing run is the
 * same Scan plus the writes of what differs (nothing, when the projector kept every view).
 */
const defaultRebuild = (scale: number): 'full' | 'dry' => (scale === 1 ? 'full' : 'dry');

/** One scale, in this process (starts its own DynamoDB Local). */
export const measureProjection = async (options: {
  scale: number;
  n: number;
  /** full: dry run, then the repairing run; dry: the dry run only (same Scan and compare). */
  rebuild?: 'full' | 'dry' | 'none';
  /** Called with the freshness and cost figures before the rebuild starts. */
  onPartial?: (result: ScaleResult) => void;
  /** The parent's table with this scale's catalogue already loaded (see startBenchPlatform). */
  loaded?: LoadedTable;
}): Promise<ScaleResult> => {
  process.env.LOCAL_RATE_LIMITS = 'off';
  process.env.LOG_LEVEL ??= 'ERROR'; // no request log lines (polls answer 404 until a creator exists)
  const started = performance.now();
  const platform = await startBenchPlatform(options.scale, options.loaded);
  const startSeconds = (performance.now() - started) / 1000;
  const { startLocalApi } = await import('../scripts/local/server.ts');
  const { dynamo } = await import('../shared/db/client.ts');
  const { issueAccessToken } = await import('../shared/identity/access-token.ts');
  const { rebuildViews } = await import('../shared/projection/rebuild.ts');
  const { tableName } = await import('../shared/db/table.ts');
  const { DynamoDBClient, DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
  const { server, url } = await startLocalApi(0, '127.0.0.1', { trustForwardedFor: true });
  const { connectStripeWebhooks } = await import('../scripts/local/stripe/wiring.ts');
  await connectStripeWebhooks(platform.stripe, url);
  // What the card network does on the stand-in (`npm run pay`), as the tests do it.
  const { pay } = await import('../test/support/payments.ts');

  // The projector's DynamoDB calls: capacity and when the last one ended.
  const spent = { read: 0, write: 0, calls: 0, lastEnd: 0, byCommand: {} as Record<string, number> };
  const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (process.env.ROUTE_KEY !== '$stream/projector') return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as {
        ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
      };
      const list = Array.isArray(output.ConsumedCapacity)
        ? output.ConsumedCapacity
        : output.ConsumedCapacity
          ? [output.ConsumedCapacity]
          : [];
      const isRead = READS.test(String(context.commandName));
      const command = String(context.commandName).replace(/Command$/, '');
      spent.byCommand[command] =
        (spent.byCommand[command] ?? 0) + list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      for (const c of list) {
        if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined) {
          spent.read += c.ReadCapacityUnits ?? 0;
          spent.write += c.WriteCapacityUnits ?? 0;
        } else if (isRead) spent.read += c.CapacityUnits ?? 0;
        else spent.write += c.CapacityUnits ?? 0;
      }
      spent.calls++;
      spent.lastEnd = performance.now();
      return result;
    },
    { step: 'serialize', name: 'benchProjectorCapacity', priority: 'high' },
  );
  type ConsumedCapacity = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

  let address = 0;
  const call = async (
    method: string,
    path: string,
    opts: { body?: unknown; token?: string } = {},
  ): Promise<{ status: number; body: Json }> => {
    address++;
    const headers: Record<string, string> = {
      'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const must = async (
    expected: number,
    method: string,
    path: string,
    opts?: { body?: unknown; token?: string },
  ) => {
    const res = await call(method, path, opts);
    if (res.status !== expected)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
  const get = (path: string) => call('GET', path);
  /** A creator's payout account set up as the creator does it: onboarding, Stripe's form, `account.updated`. */
  const onboardPayouts = async (token: string, creatorId: string) => {
    await must(201, 'POST', '/studio/payouts/onboarding', { token });
    await pay('onboard', creatorId);
    await platform.stripe.deliverer.drain();
    const payouts = await must(200, 'GET', '/studio/payouts', { token });
    if (payouts.data.charges_enabled !== true)
      throw new Error(`payouts of ${creatorId}: not charges_enabled`);
  };
  /**
   * A paid subscription by a new viewer: the checkout, the payment completed on the stand-in, and
   * its webhooks delivered and answered (the grant is the webhook's write: freshness counts from there).
   */
  const subscribe = async (creatorId: string) => {
    const { token } = await issueAccessToken(`acc_bench_${randomUUID()}`, new Date());
    const checkout = await must(201, 'POST', `/creators/${creatorId}/subscription`, { token });
    await pay('complete', checkout.data.checkout_id);
    await platform.stripe.deliverer.drain();
  };
  const userBlock = async (creatorId: string) => {
    const res = await get(`/creators/${creatorId}`);
    return res.status === 200 ? res.body.data.find((b: { type: string }) => b.type === 'user') : undefined;
  };
  const ids = (list: Array<{ id?: string; creator_id?: string; show_id?: string }> | undefined) =>
    (list ?? []).map((x) => x.id ?? x.creator_id ?? x.show_id);
  const categoryCount = async (category: string): Promise<number> =>
    (await get('/categories')).body.data.find((c: { id: string }) => c.id === category)?.creator_count ?? 0;
  const newestCreators = async (category: string) =>
    (await get(`/creators?category=${category}&sort=newest&limit=10`)).body.data.creators as Array<
      Record<string, Json>
    >;

  /** Polls every check every POLL_MS until each has answered true once; ms to the last. */
  const freshAfter = async (t0: number, checks: Record<string, () => Promise<boolean>>) => {
    const pending = new Map(Object.entries(checks));
    while (pending.size > 0 && performance.now() - t0 < TIMEOUT_MS) {
      const round = performance.now();
      await Promise.all(
        [...pending].map(async ([name, check]) => {
          if (await check().catch(() => false)) pending.delete(name);
        }),
      );
      if (pending.size === 0) break;
      await sleep(Math.max(0, POLL_MS - (performance.now() - round)));
    }
    return pending.size === 0 ? performance.now() - t0 : Number.POSITIVE_INFINITY;
  };

  const freshness = new Map<Kind, { ms: number[]; done: number[]; endpoints: string[] }>();
  const cost = new Map<
    Kind,
    { read: number; write: number; calls: number; n: number; byCommand: Record<string, number> }
  >();
  /** One measured write: its freshness, when the projector finished, and what that cost. */
  const measure = async (
    kind: Kind,
    write: () => Promise<unknown>,
    checks: Record<string, () => Promise<boolean>>,
  ) => {
    await platform.drain();
    const before = { ...spent, byCommand: { ...spent.byCommand } };
    await write();
    const t0 = performance.now();
    const ms = await freshAfter(t0, checks);
    await platform.drain();
    const entry = freshness.get(kind) ?? { ms: [], done: [], endpoints: Object.keys(checks) };
    entry.ms.push(ms);
    entry.done.push(spent.lastEnd > t0 ? spent.lastEnd - t0 : 0);
    freshness.set(kind, entry);
    const c = cost.get(kind) ?? { read: 0, write: 0, calls: 0, n: 0, byCommand: {} };
    for (const [command, units] of Object.entries(spent.byCommand))
      c.byCommand[command] = (c.byCommand[command] ?? 0) + units - (before.byCommand[command] ?? 0);
    c.read += spent.read - before.read;
    c.write += spent.write - before.write;
    c.calls += spent.calls - before.calls;
    c.n++;
    cost.set(kind, c);
  };

  // ── Writes ──────────────────────────────────────────────────────────────────────────────
  const creators: Array<{ token: string; id: string; category: string; handle: string }> = [];
  for (let i = 0; i < options.n; i++) {
    const id = randomUUID().replace(/-/g, '').slice(0, 12);
    const handle = `bench_${id}`;
    const category = CATEGORIES[i % CATEGORIES.length]!;
    const created = await must(201, 'POST', '/onboarding/account/create', {
      body: {
        email: `bench.${id}@example.com`,
        password: 'correct-horse-1',
        creator_name: `Bench ${id}`,
        handle,
        agreed_to_terms: true,
      },
    });
    const token: string = created.data.auth_token;
    const creatorId: string = created.data.creator_id;
    await must(200, 'POST', '/onboarding/category', { body: { category_id: category }, token });
    const count = await categoryCount(category);
    await measure(
      'onboarding',
      () =>
        must(200, 'POST', '/onboarding/social/connect', {
          body: { platform: 'youtube', access_token: `sdk-${id}` },
          token,
        }),
      {
        '/creators/{id}': async () => (await get(`/creators/${creatorId}`)).status === 200,
        '/creators?category=…&sort=newest': async () =>
          ids(await newestCreators(category)).includes(creatorId),
        '/creators/search?q=<handle>': async () =>
          ids((await get(`/creators/search?q=${handle}`)).body.data.creators).includes(creatorId),
        '/categories (count)': async () => (await categoryCount(category)) >= count + 1,
      },
    );
    await onboardPayouts(token, creatorId); // the studio opens once onboarding is done
    creators.push({ token, id: creatorId, category, handle });
  }

  for (const creator of creators) {
    const name = `Renamed ${word()}`;
    const token = name.split(' ')[1]!;
    await measure(
      'profile edit',
      () => must(200, 'PATCH', '/studio/profile', { body: { creator_name: name }, token: creator.token }),
      {
        '/creators/{id}': async () => (await userBlock(creator.id))?.name === name,
        '/creators/search?q=<new name>': async () =>
          ids((await get(`/creators/search?q=${token}`)).body.data.creators).includes(creator.id),
        '/creators?category=…&sort=newest': async () =>
          (await newestCreators(creator.category)).find((c) => (c.id ?? c.creator_id) === creator.id)
            ?.name === name,
      },
    );
  }

  const shows: Array<{ id: string; creator: (typeof creators)[number]; episodes: string[] }> = [];
  for (const creator of creators) {
    const title = word();
    let showId = '';
    await measure(
      'show create',
      async () => {
        const show = await must(201, 'POST', '/studio/shows', {
          token: creator.token,
          body: {
            title: `Bench ${title}`,
            description: 'A show the benchmark made.',
            category: creator.category,
            rating: 'TV-PG',
          },
        });
        showId = show.data.show_id;
      },
      {
        '/shows/{id}': async () => (await get(`/shows/${showId}`)).status === 200,
        '/shows?sort=newest': async () =>
          ids((await get('/shows?sort=newest')).body.data.shows).includes(showId),
        '/shows/search?q=<title>': async () =>
          ids((await get(`/shows/search?q=${title}`)).body.data.shows).includes(showId),
      },
    );
    shows.push({ id: showId, creator, episodes: [] });
  }

  const episodesOf = async (showId: string) =>
    ((await get(`/shows/${showId}`)).body.data.episodes ?? []) as Array<Record<string, Json>>;
  for (const show of shows) {
    let episodeId = '';
    await measure(
      'episode create',
      async () => {
        const episode = await must(201, 'POST', `/studio/shows/${show.id}/episodes`, {
          token: show.creator.token,
          body: { season: 1, episode_number: 1, title: 'Pilot', duration_seconds: 1800, is_free: true },
        });
        episodeId = episode.data.episode_id;
      },
      {
        '/shows/{id} (episodes)': async () =>
          (await episodesOf(show.id)).some((e) => e.episode_id === episodeId),
      },
    );
    show.episodes.push(episodeId);
  }

  for (const [i, creator] of creators.entries()) {
    let programId = '';
    const day = `2030-01-${String(10 + (i % 18)).padStart(2, '0')}`;
    await measure(
      'program create',
      async () => {
        const program = await must(201, 'POST', '/studio/channel/programs', {
          token: creator.token,
          body: {
            title: 'Bench hour',
            rating: 'TV-PG',
            start_time: `${day}T20:00:00Z`,
            duration_minutes: 60,
          },
        });
        programId = program.data.program_id;
      },
      {
        '/creators/{id}/channel/schedule': async () =>
          (
            (await get(`/creators/${creator.id}/channel/schedule?date=${day}&timezone=UTC`)).body.data
              .schedule as Array<{
              program_id: string;
            }>
          ).some((p) => p.program_id === programId),
      },
    );
  }

  for (const creator of creators) {
    const subscribers = Number((await userBlock(creator.id)).audience_metrics.subscribers);
    await measure('subscribe', () => subscribe(creator.id), {
      '/creators/{id} (subscribers)': async () =>
        Number((await userBlock(creator.id))?.audience_metrics.subscribers) === subscribers + 1,
      '/creators?category=…&sort=newest (subscribers)': async () => {
        const card = (await newestCreators(creator.category)).find(
          (c) => (c.id ?? c.creator_id) === creator.id,
        );
        return Number(card?.subscribers) === subscribers + 1;
      },
    });
  }

  for (const show of shows) {
    const episodeId = show.episodes[0]!;
    const views = Number((await episodesOf(show.id)).find((e) => e.episode_id === episodeId)?.views ?? 0);
    const creatorViews = Number((await userBlock(show.creator.id)).audience_metrics.views);
    // A session started (session/start) as if two minutes ago: views count only for sessions the
    // platform started, and at most the wall time since the start (shared/analytics/playback-count.ts).
    const { clock } = await import('../shared/clock.ts');
    const realNow = clock.now;
    clock.now = () => new Date(Date.now() - 120_000);
    const started = await call('POST', '/analytics/video/session/start', {
      body: { content_id: episodeId, device_type: 'web' },
    }).finally(() => {
      clock.now = realNow;
    });
    if (started.status !== 201) throw new Error(`session/start: ${started.status}`);
    const sessionId = String((started.body as { data: { session_id: string } }).data.session_id);
    await measure(
      'view',
      () =>
        call('POST', '/analytics/video/session/heartbeat', {
          body: {
            event_id: randomUUID(),
            session_id: sessionId,
            content_id: episodeId,
            device_type: 'web',
            client_ts: new Date().toISOString(),
            position_seconds: 100,
            playing_seconds: 30,
          },
        }).then((res) => {
          if (res.status >= 300) throw new Error(`heartbeat: ${res.status} ${JSON.stringify(res.body)}`);
        }),
      {
        '/shows/{id} (episode views)': async () =>
          Number((await episodesOf(show.id)).find((e) => e.episode_id === episodeId)?.views) === views + 1,
        '/creators/{id} (views)': async () =>
          Number((await userBlock(show.creator.id))?.audience_metrics.views) === creatorViews + 1,
      },
    );
  }

  // drain() lag: write 2xx → drain() resolved, called at once (profile edits, then subscribes).
  const drainLags: number[] = [];
  for (const creator of creators.slice(0, Math.min(10, creators.length))) {
    await platform.drain();
    await must(200, 'PATCH', '/studio/profile', {
      body: { description: `Edited ${word()}` },
      token: creator.token,
    });
    const t0 = performance.now();
    await platform.drain();
    drainLags.push(performance.now() - t0);
    await subscribe(creator.id);
    const t1 = performance.now();
    await platform.drain();
    drainLags.push(performance.now() - t1);
  }

  await platform.drain();
  server.close();
  server.closeAllConnections();
  const result: ScaleResult = {
    scale: options.scale,
    items: platform.items,
    startSeconds,
    reused: options.loaded !== undefined,
    freshness: {},
    projectorDone: {},
    drainLag: percentiles(drainLags),
    cost: {},
  };
  const all: number[] = [];
  const allDone: number[] = [];
  for (const kind of KINDS) {
    const f = freshness.get(kind);
    if (!f) continue;
    all.push(...f.ms);
    allDone.push(...f.done);
    result.freshness[kind] = {
      ...percentiles(f.ms),
      endpoints: f.endpoints,
      timeouts: f.ms.filter((ms) => !Number.isFinite(ms)).length,
    };
    result.projectorDone[kind] = percentiles(f.done);
  }
  result.freshness.overall = {
    ...percentiles(all),
    endpoints: [],
    timeouts: all.filter((ms) => !Number.isFinite(ms)).length,
  };
  result.projectorDone.overall = percentiles(allDone);
  for (const [kind, c] of cost)
    result.cost[kind] = {
      read: c.read / c.n,
      write: c.write / c.n,
      calls: c.calls / c.n,
      n: c.n,
      byCommand: Object.fromEntries(Object.entries(c.byCommand).map(([k, v]) => [k, v / c.n])),
    };
  options.onPartial?.(result);

  // ── Rebuild ─────────────────────────────────────────────────────────────────────────────
  if (options.rebuild !== 'none') {
    const admin = new DynamoDBClient({
      endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const { Table } = await admin.send(new DescribeTableCommand({ TableName: tableName() }));
    let t = performance.now();
    const dry = await rebuildViews({ dryRun: true });
    const dryRunMs = performance.now() - t;
    if (dry.put + dry.deleted > 0)
      console.error(
        `rebuild (dry run) found ${dry.put} puts, ${dry.deleted} deletes: ${dry.examples.join(', ')}`,
      );
    let ms = Number.NaN;
    if (options.rebuild === 'full') {
      t = performance.now();
      await rebuildViews();
      ms = performance.now() - t;
    }
    result.rebuild = {
      dryRunMs,
      ms,
      scanned: Table?.ItemCount ?? Number.NaN,
      sources: dry.sources,
      views: dry.views,
      put: dry.put,
      deleted: dry.deleted,
    };
  }
  await platform.stop();
  return result;
};

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** The report's markdown for the scales measured (ratios when 1x and 10x are both there). */
export const projectionMarkdown = (results: ScaleResult[], n: number): string[] => {
  const md = ['', '## Projections (freshness, projector cost per change, rebuild)', ''];
  md.push(
    `${n} writes of each kind, one at a time through the local API; endpoints polled every ${POLL_MS} ms from the 2xx. ` +
      '"projector done" = the end of the projector\'s last DynamoDB call for the change. Target: p99 ≤ 2000 ms.',
    '',
    '| scale | kind | n | fresh p50 ms | p95 | p99 | max | timeouts | projector done p50 | p99 | endpoints |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results)
    for (const [kind, f] of Object.entries(r.freshness)) {
      const d = r.projectorDone[kind]!;
      md.push(
        `| ${r.scale}x | ${kind} | ${f.n} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} | ${fmt(f.max)} | ${f.timeouts} | ${fmt(d.p50)} | ${fmt(d.p99)} | ${f.endpoints.map((e) => `\`${e}\``).join(', ')} |`,
      );
    }
  md.push('');
  for (const r of results)
    md.push(
      `${r.scale}x: write 2xx → \`drain()\` resolved (called at once; ${r.drainLag.n} profile edits and subscribes): p50 ${fmt(r.drainLag.p50)} ms, p99 ${fmt(r.drainLag.p99)} ms, max ${fmt(r.drainLag.max)} ms.`,
    );
  md.push(
    '',
    'Capacity units the projector consumes per change (mean; reads / writes / DynamoDB calls). Target: 10x within 1.5x of 1x.',
    '',
  );
  const one = results.find((r) => r.scale === 1);
  const ten = results.find((r) => r.scale === 10);
  md.push(
    '| kind | scale | read units | write units | calls | total | 10x / 1x |',
    '|---|---|---|---|---|---|---|',
  );
  for (const kind of COST_KINDS)
    for (const r of results) {
      const c = r.cost[kind];
      if (!c) continue;
      const total = c.read + c.write;
      const base = one?.cost[kind];
      const ratio = r.scale === 10 && base ? total / (base.read + base.write) : Number.NaN;
      md.push(
        `| ${kind} | ${r.scale}x | ${fmt(c.read, 1)} | ${fmt(c.write, 1)} | ${fmt(c.calls, 1)} | ${fmt(total, 1)} | ${r === ten ? fmt(ratio, 2) : ''} | ${Object.entries(
          c.byCommand ?? {},
        )
          .filter(([, units]) => units > 0)
          .map(([command, units]) => `${command} ${fmt(units, 1)}`)
          .join(', ')} |`,
      );
    }
  md.push(
    '',
    '| scale | items loaded | platform start s (reused: table loaded by the growth part) | rebuild dry run s | rebuild s | items scanned | sources | views | repaired (dry run: put / deleted) |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const b = r.rebuild;
    md.push(
      b
        ? `| ${r.scale}x | ${r.items} | ${fmt(r.startSeconds, 1)}${r.reused ? ' (reused)' : ''} | ${fmt(b.dryRunMs / 1000, 1)} | ${fmt(b.ms / 1000, 1)} | ${b.scanned} | ${b.sources} | ${b.views} | ${b.put} / ${b.deleted} |`
        : `| ${r.scale}x | ${r.items} | ${fmt(r.startSeconds, 1)}${r.reused ? ' (reused)' : ''} | not run | not run | | | | |`,
    );
  }
  return md;
};

/** 10x / 1x capacity ratio per kind (for bench:check). */
export const costRatios = (results: ScaleResult[]) => {
  const one = results.find((r) => r.scale === 1);
  const ten = results.find((r) => r.scale === 10);
  if (!one || !ten) return [];
  return COST_KINDS.filter((k) => one.cost[k] && ten.cost[k]).map((kind) => {
    const a = one.cost[kind]!;
    const b = ten.cost[kind]!;
    return { kind, ratio: (b.read + b.write) / (a.read + a.write) };
  });
};

/**
 * Both scales, each in a child process: with a DynamoDB Local of its own, or on the table `loaded`
 * names for that scale (on the parent's DynamoDB Local, which must stay up meanwhile).
 */
export const runProjectionBench = async (options: {
  n: number;
  scales?: number[];
  loaded?: Partial<Record<number, LoadedTable>>;
}) => {
  const results: ScaleResult[] = [];
  for (const scale of options.scales ?? [1, 10]) {
    const loaded = options.loaded?.[scale];
    const args = ['--scale', String(scale), '--n', String(options.n)];
    if (loaded)
      args.push('--endpoint', loaded.endpoint, '--table', loaded.table, '--items', String(loaded.items));
    results.push(await runChild<ScaleResult>('bench/projection.ts', args));
  }
  return {
    report: { projection: { n: options.n, scales: results, costRatios: costRatios(results) } },
    markdown: projectionMarkdown(results, options.n),
  };
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string' },
      n: { type: 'string', default: '30' },
      json: { type: 'string' },
      rebuild: { type: 'string' },
      // A table already loaded with this scale's catalogue (bench/run.ts passes its own).
      endpoint: { type: 'string' },
      table: { type: 'string' },
      items: { type: 'string' },
    },
  });
  const n = Number(values.n);
  if (values.scale) {
    const scale = Number(values.scale);
    const write = (result: ScaleResult) => {
      if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
    };
    const result = await measureProjection({
      scale,
      n,
      rebuild: (values.rebuild as 'full' | 'dry' | 'none' | undefined) ?? defaultRebuild(scale),
      onPartial: write,
      loaded:
        values.endpoint && values.table
          ? { endpoint: values.endpoint, table: values.table, items: Number(values.items ?? Number.NaN) }
          : undefined,
    });
    write(result);
    if (!values.json) console.log(projectionMarkdown([result], n).join('\n'));
  } else {
    const { markdown, report } = await runProjectionBench({ n });
    console.log(markdown.join('\n'));
    console.log(JSON.stringify(report.projection.costRatios));
  }
  process.exit(0);
}
