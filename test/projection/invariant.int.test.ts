import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionContext, runAsFunction } from '../../scripts/local/aws.ts';
import { startTableStream, type TableStream } from '../../scripts/local/table-stream.ts';
import { CATEGORY_IDS, type CategoryId, RATING_IDS, TIER_IDS } from '../../shared/catalog/model.ts';
import { createTable } from '../../shared/db/create-table.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { rebuildViews } from '../../shared/projection/rebuild.ts';
import { type ApiResponse, type RequestOptions, type TestApi, testApi } from '../support/api.ts';
import { onboardCreator, subscribePaid } from '../support/payments.ts';
import { startSessionsAgo } from '../support/analytics.ts';
import { inParallel } from '../support/parallel.ts';

/**
 * The projection invariant (issue 16, item 6), tested as a property: random sequences of
 * operations through the HTTP API (sign-ups and onboarding, profile edits, shows, episodes and
 * programs created, edited and deleted, subscribe and cancel, follow and unfollow, views); once
 * the projector has drained, (a) every view equals a from-scratch rebuild, (b) every list
 * endpoint equals a brute-force computation from the source items (written here, independently
 * of the production comparators), (c) every counter equals what the operations made.
 *
 * Isolation: this file runs on a table of its own (created empty here) with a projector of its
 * own (the projector handler run as its function on this table's stream), so no other test
 * file's writes reach it. State accumulates over the runs (each run starts where the last ended).
 */

const TABLE = `invariant-${process.pid}-${Date.now()}`;
// Before the first testApi() call: the handlers' environment and IAM (scripts/local/aws.ts
// localDeployment) and shared/db/table.ts read TABLE_NAME from here.
process.env.TABLE_NAME = TABLE;
// Per-IP and per-account budgets are not what this test is about.
process.env.LOCAL_RATE_LIMITS = 'off';
// The least-privilege teardown compares recorded calls with the shared table's ARNs: calls to
// this table would read as "beyond the grant", so this worker records none.
delete process.env.IAM_USAGE_DIR;

/**
 * Runs and the longest sequence. Each run costs tens of seconds on the shared 2-core machine
 * (the projector writes ~50 view items per show or creator change, and the check reads every
 * list), so the default is modest; INVARIANT_RUNS=15 INVARIANT_MAX_OPS=15 runs the deep version.
 */
const NUM_RUNS = Number(process.env.INVARIANT_RUNS ?? 4);
const MAX_OPS = Number(process.env.INVARIANT_MAX_OPS ?? 10);
/** List and search requests of a check in flight at once (docs/conventions.md "Test time"). */
const CHECKS_AT_ONCE = 4;
const ADMIN = new DynamoDBClient({
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
/** A client of this test's own (the shared one refuses Scan on request paths). */
const reader = DynamoDBDocumentClient.from(ADMIN);

let api: TestApi;
let stream: TableStream;
const viewers: string[] = [];

beforeAll(async () => {
  await createTable(ADMIN, TABLE);
  const { projectorRow } = await import('../../functions/workers.ts');
  const { handler } = await import('../../functions/projector/project-changes.ts');
  const context = functionContext(projectorRow);
  stream = await startTableStream({
    tableName: TABLE,
    handler: (event) => runAsFunction(context, () => handler(event)),
    // From the stream's start: the table is new, so every change is projected.
    startingPosition: 'TRIM_HORIZON',
    maxRetries: 5,
    onFailure: ({ record, error }) => {
      projectorFailures.push(
        `${record.eventName} ${JSON.stringify(record.dynamodb?.Keys)}: ${String(error)}`,
      );
    },
  });
  api = await testApi();
  for (let i = 0; i < 4; i++)
    viewers.push((await issueAccessToken(`acc_x_${randomUUID()}`, new Date())).token);
  // Two creators, a show and an episode to start from (the table is empty), so the first runs'
  // operations have targets.
  await Promise.all([signUp('comedy'), signUp('music')]);
  await apply({ t: 'createShow', c: 0, category: 'comedy', rating: 'TV-PG', word: 'Orbit' });
  await apply({ t: 'createEpisode', s: 0, season: 1, number: 1 });
}, 120_000);

afterAll(async () => {
  await stream?.stop();
  await ADMIN.send(new DeleteTableCommand({ TableName: TABLE })).catch(() => undefined);
});

const projectorFailures: string[] = [];

// ── Requests ─────────────────────────────────────────────────────────────────────────────────

let address = 0;
/** Every request from an address of its own (per-IP budgets never couple operations). */
const call = (method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> => {
  address++;
  return api.request(method, path, {
    ...options,
    headers: {
      'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
      ...options.headers,
    },
  });
};
const expectStatus = (res: ApiResponse, allowed: number[], what: string) => {
  if (!allowed.includes(res.status))
    throw new Error(
      `${what}: answered ${res.status} (expected ${allowed.join('|')}): ${JSON.stringify(res.body)}`,
    );
};

// ── The model: what the operations made (kept across runs) ────────────────────────────────────

interface Creator {
  id: string;
  token: string;
  name: string;
}
interface Show {
  id: string;
  creator: Creator;
}
interface Episode {
  id: string;
  show: Show;
}
interface Program {
  id: string;
  creator: Creator;
}
const model = {
  creators: [] as Creator[],
  shows: [] as Show[],
  episodes: [] as Episode[],
  programs: [] as Program[],
  /** Deleted shows (id, title): search must not find them. */
  deletedShows: [] as Array<{ id: string; title: string }>,
  subscriptions: new Set<string>(), // counted: `${viewer}|${creator id}`, paid and not cancelled
  held: new Set<string>(), // paid and still granting (a cancelled one holds until its period ends)
  follows: new Set<string>(),
  episodeViews: new Map<string, number>(),
  showViews: new Map<string, number>(),
  creatorViews: new Map<string, number>(),
  /** The views a creator had when it appeared (onboarding may bring some). */
  creatorViewsAtStart: new Map<string, number>(),
};
let unique = 0;
/** A word made of letters only, unique in this file (search tokens). */
const uniqueWord = () => {
  let n = ++unique;
  let word = '';
  do {
    word = String.fromCharCode(97 + (n % 26)) + word;
    n = Math.floor(n / 26);
  } while (n > 0);
  return `qz${word}`;
};
const pick = <T>(list: T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];

// ── Operations ───────────────────────────────────────────────────────────────────────────────

const WORDS = ['Loops', 'Night', 'Kitchen', 'Orbit', 'Garden', 'Pixel', 'Harbor'] as const;
const category = fc.constantFrom(...CATEGORY_IDS.slice(0, 3));
const rating = fc.constantFrom(...RATING_IDS);
const word = fc.constantFrom(...WORDS);
const index = fc.nat(1000);

type Op =
  | { t: 'signup'; category: CategoryId }
  | { t: 'profile'; c: number; name?: string; category?: CategoryId }
  | { t: 'createShow'; c: number; category: CategoryId; rating: string; word: string }
  | { t: 'editShow'; s: number; word?: string; category?: CategoryId; rating?: string }
  | { t: 'deleteShow'; s: number }
  | { t: 'createEpisode'; s: number; season: number; number: number; free?: boolean }
  | { t: 'editEpisode'; e: number; title?: string; season?: number; number?: number; free?: boolean }
  | { t: 'deleteEpisode'; e: number }
  | { t: 'createProgram'; c: number }
  | { t: 'editProgram'; p: number; word: string }
  | { t: 'deleteProgram'; p: number }
  | { t: 'subscribe' | 'cancel' | 'follow' | 'unfollow'; v: number; c: number }
  | { t: 'view'; e: number; sessions: number; short: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('signup' as const), category }), weight: 2 },
  {
    arbitrary: fc.record(
      { t: fc.constant('profile' as const), c: index, name: word, category },
      { requiredKeys: ['t', 'c'] },
    ),
    weight: 1,
  },
  {
    arbitrary: fc.record({ t: fc.constant('createShow' as const), c: index, category, rating, word }),
    weight: 3,
  },
  {
    arbitrary: fc.record(
      { t: fc.constant('editShow' as const), s: index, word, category, rating },
      { requiredKeys: ['t', 's'] },
    ),
    weight: 2,
  },
  { arbitrary: fc.record({ t: fc.constant('deleteShow' as const), s: index }), weight: 1 },
  {
    arbitrary: fc.record({
      t: fc.constant('createEpisode' as const),
      s: index,
      season: fc.integer({ min: 1, max: 2 }),
      number: fc.integer({ min: 1, max: 3 }),
      free: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record(
      {
        t: fc.constant('editEpisode' as const),
        e: index,
        title: word,
        season: fc.integer({ min: 1, max: 2 }),
        number: fc.integer({ min: 1, max: 3 }),
        free: fc.boolean(),
      },
      { requiredKeys: ['t', 'e'] },
    ),
    weight: 1,
  },
  { arbitrary: fc.record({ t: fc.constant('deleteEpisode' as const), e: index }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('createProgram' as const), c: index }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('editProgram' as const), p: index, word }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('deleteProgram' as const), p: index }), weight: 1 },
  {
    arbitrary: fc.record({
      t: fc.constantFrom('subscribe' as const, 'cancel' as const, 'follow' as const, 'unfollow' as const),
      v: fc.nat(3),
      c: index,
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      t: fc.constant('view' as const),
      e: index,
      sessions: fc.integer({ min: 1, max: 2 }),
      short: fc.boolean(),
    }),
    weight: 3,
  },
);

/** Drains the projector until nothing it wrote is left to project (account → creator → views). */
const settle = async () => {
  for (let i = 0; i < 3; i++) await stream.drain();
};

const signUp = async (cat: CategoryId) => {
  const id = randomUUID().replace(/-/g, '').slice(0, 10);
  const name = `Inv ${uniqueWord()}`;
  const created = await call('POST', '/onboarding/account/create', {
    body: {
      email: `inv.${id}@example.com`,
      password: 'correct-horse-1',
      creator_name: name,
      handle: `inv_${id}`,
      agreed_to_terms: true,
    },
  });
  expectStatus(created, [201], 'sign-up');
  const token: string = created.body.data.auth_token;
  const creatorId: string = created.body.data.creator_id;
  expectStatus(
    await call('POST', '/onboarding/category', { token, body: { category_id: cat } }),
    [200],
    'category',
  );
  expectStatus(
    await call('POST', '/onboarding/social/connect', {
      token,
      body: { platform: 'youtube', access_token: 'x' },
    }),
    [200],
    'social connect',
  );
  await stream.drain(); // the account's record projected: the creator item is written
  await onboardCreator(api, token, creatorId); // its plan on sale (a checkout pays the creator)

  const source = (await scanSources()).creators.find((c) => c.id === creatorId);
  if (!source) throw new Error(`onboarded creator ${creatorId} did not appear in table ${TABLE}`);
  model.creatorViewsAtStart.set(creatorId, Number(source.views ?? 0));
  model.creators.push({ id: creatorId, token, name });
};

const heartbeat = (episodeId: string, session: string, playing: number) =>
  call('POST', '/analytics/video/session/heartbeat', {
    body: {
      event_id: randomUUID(),
      session_id: session,
      content_id: episodeId,
      device_type: 'web',
      client_ts: new Date().toISOString(),
      position_seconds: 100,
      playing_seconds: playing,
    },
  });

let programSlot = 0;
const bump = (map: Map<string, number>, key: string, by: number) => map.set(key, (map.get(key) ?? 0) + by);

const apply = async (op: Op): Promise<void> => {
  switch (op.t) {
    case 'signup':
      return signUp(op.category);
    case 'profile': {
      const c = pick(model.creators, op.c);
      if (!c) return;
      const body: Record<string, unknown> = {};
      if (op.name) {
        c.name = `${op.name} ${uniqueWord()}`;
        body.creator_name = c.name;
      }
      if (op.category) body.category = op.category;
      if (Object.keys(body).length === 0) body.description = `About ${uniqueWord()}`;
      expectStatus(await call('PATCH', '/studio/profile', { token: c.token, body }), [200], 'profile');
      return;
    }
    case 'createShow': {
      const c = pick(model.creators, op.c);
      if (!c) return;
      const res = await call('POST', '/studio/shows', {
        token: c.token,
        body: {
          title: `${op.word} ${uniqueWord()}`,
          description: 'Made by the invariant test.',
          category: op.category,
          rating: op.rating,
        },
      });
      expectStatus(res, [201], 'create show');
      model.shows.push({ id: res.body.data.show_id, creator: c });
      return;
    }
    case 'editShow': {
      const s = pick(model.shows, op.s);
      if (!s) return;
      const body: Record<string, unknown> = {};
      if (op.word) body.title = `${op.word} ${uniqueWord()}`;
      if (op.category) body.category = op.category;
      if (op.rating) body.rating = op.rating;
      if (Object.keys(body).length === 0) body.description = `Edited ${uniqueWord()}`;
      expectStatus(
        await call('PATCH', `/studio/shows/${s.id}`, { token: s.creator.token, body }),
        [200],
        'edit show',
      );
      return;
    }
    case 'deleteShow': {
      const s = pick(model.shows, op.s);
      if (!s) return;
      const before = await call('GET', `/shows/${s.id}`);
      expectStatus(
        await call('DELETE', `/studio/shows/${s.id}`, { token: s.creator.token }),
        [200, 204],
        'delete show',
      );
      model.deletedShows.push({ id: s.id, title: before.body.data.title });
      model.shows = model.shows.filter((x) => x !== s);
      model.episodes = model.episodes.filter((e) => e.show !== s);
      model.showViews.delete(s.id);
      return;
    }
    case 'createEpisode': {
      const s = pick(model.shows, op.s);
      if (!s) return;
      const res = await call('POST', `/studio/shows/${s.id}/episodes`, {
        token: s.creator.token,
        body: {
          season: op.season,
          episode_number: op.number,
          title: `Episode ${uniqueWord()}`,
          duration_seconds: 600,
          // Free or premium: the show's episode tally counts free episodes per season.
          is_free: op.free ?? true,
        },
      });
      expectStatus(res, [201, 409], 'create episode'); // 409: that position is taken
      if (res.status === 201) model.episodes.push({ id: res.body.data.episode_id, show: s });
      return;
    }
    case 'editEpisode': {
      const e = pick(model.episodes, op.e);
      if (!e) return;
      const body: Record<string, unknown> = {};
      if (op.title) body.title = `${op.title} ${uniqueWord()}`;
      if (op.season) body.season = op.season;
      if (op.number) body.episode_number = op.number;
      if (op.free !== undefined) body.is_free = op.free;
      if (Object.keys(body).length === 0) body.duration_seconds = 900;
      const res = await call('PATCH', `/studio/shows/${e.show.id}/episodes/${e.id}`, {
        token: e.show.creator.token,
        body,
      });
      expectStatus(res, [200, 409], 'edit episode');
      return;
    }
    case 'deleteEpisode': {
      const e = pick(model.episodes, op.e);
      if (!e) return;
      const res = await call('DELETE', `/studio/shows/${e.show.id}/episodes/${e.id}`, {
        token: e.show.creator.token,
      });
      expectStatus(res, [200, 204], 'delete episode');
      model.episodes = model.episodes.filter((x) => x !== e);
      model.episodeViews.delete(e.id);
      return;
    }
    case 'createProgram': {
      const c = pick(model.creators, op.c);
      if (!c) return;
      const start = new Date(Date.UTC(2030, 0, 1) + ++programSlot * 3_600_000).toISOString();
      const res = await call('POST', '/studio/channel/programs', {
        token: c.token,
        body: { title: `Program ${uniqueWord()}`, rating: 'TV-PG', start_time: start, duration_minutes: 30 },
      });
      expectStatus(res, [201], 'create program');
      model.programs.push({ id: res.body.data.program_id, creator: c });
      return;
    }
    case 'editProgram': {
      const p = pick(model.programs, op.p);
      if (!p) return;
      const res = await call('PATCH', `/studio/channel/programs/${p.id}`, {
        token: p.creator.token,
        body: { title: `${op.word} ${uniqueWord()}` },
      });
      expectStatus(res, [200], 'edit program');
      return;
    }
    case 'deleteProgram': {
      const p = pick(model.programs, op.p);
      if (!p) return;
      const res = await call('DELETE', `/studio/channel/programs/${p.id}`, { token: p.creator.token });
      expectStatus(res, [200, 204], 'delete program');
      model.programs = model.programs.filter((x) => x !== p);
      return;
    }
    case 'subscribe': {
      // A paid subscription (checkout, payment on the Stripe stand-in, webhook); one still
      // holding (cancelled at period end included) is a 409 and changes nothing.
      const c = pick(model.creators, op.c);
      if (!c) return;
      const key = `${op.v}|${c.id}`;
      if (model.held.has(key)) {
        expectStatus(
          await call('POST', `/creators/${c.id}/subscription`, { token: viewers[op.v]! }),
          [409],
          op.t,
        );
        return;
      }
      await subscribePaid(api, viewers[op.v]!, c.id);
      model.held.add(key);
      model.subscriptions.add(key);
      return;
    }
    case 'cancel':
    case 'follow':
    case 'unfollow': {
      const c = pick(model.creators, op.c);
      if (!c) return;
      const path = op.t === 'cancel' ? 'subscription' : 'follow';
      const method = op.t === 'follow' ? 'POST' : 'DELETE';
      const res = await call(method, `/creators/${c.id}/${path}`, { token: viewers[op.v]! });
      expectStatus(res, [200], op.t);
      const set = path === 'subscription' ? model.subscriptions : model.follows;
      if (method === 'POST') set.add(`${op.v}|${c.id}`);
      else set.delete(`${op.v}|${c.id}`);
      return;
    }
    case 'view': {
      const e = pick(model.episodes, op.e);
      if (!e) return;
      const started = await startSessionsAgo(call.bind(null, 'POST'), e.id, op.sessions + 1);
      const sessions = started.slice(0, op.sessions);
      // Each session reaches 30 s of playing time over two heartbeats (sent at once), then plays on.
      const results = await Promise.all(
        sessions.flatMap((s) => [heartbeat(e.id, s, 20), heartbeat(e.id, s, 15)]),
      );
      results.push(...(await Promise.all(sessions.map((s) => heartbeat(e.id, s, 30)))));
      // A session that never reaches 30 s: no view.
      if (op.short) results.push(await heartbeat(e.id, started.at(-1)!, 29));
      for (const r of results) expectStatus(r, [200, 202, 204], 'heartbeat');
      bump(model.episodeViews, e.id, op.sessions);
      bump(model.showViews, e.show.id, op.sessions);
      bump(model.creatorViews, e.show.creator.id, op.sessions);
      // Counted while the episode exists: a later delete in this sequence must not race it.
      await stream.drain();
      return;
    }
  }
};

// ── Brute force from the source items ────────────────────────────────────────────────────────

type Source = Record<string, any>;
const scanSources = async () => {
  const items: Source[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await reader.send(
      new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return {
    creators: items.filter((i) => i.entity === 'creator'),
    shows: items.filter((i) => i.entity === 'show'),
    episodes: items.filter((i) => i.entity === 'episode'),
  };
};

/** Code-unit order, as DynamoDB orders sort keys (ids are ASCII). */
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const creatorSorts: Record<string, (a: Source, b: Source) => number> = {
  most_popular: (a, b) => Number(b.subscribers) - Number(a.subscribers) || byString(a.id, b.id),
  newest: (a, b) => byString(b.joined_at, a.joined_at) || byString(a.id, b.id),
  trending: (a, b) => Number(b.subscribers_7d) - Number(a.subscribers_7d) || byString(a.id, b.id),
};
const showSorts: Record<string, (a: Source, b: Source) => number> = {
  most_popular: (a, b) => Number(b.total_views) - Number(a.total_views) || byString(a.id, b.id),
  newest: (a, b) => byString(b.released_at, a.released_at) || byString(a.id, b.id),
  trending: (a, b) => Number(b.views_7d) - Number(a.views_7d) || byString(a.id, b.id),
};

/** Every page of a list endpoint (limit per page), its ids in order and the total it reports. */
const allPages = async (path: string, limit: number, idsOf: (body: any) => string[]) => {
  const sep = path.includes('?') ? '&' : '?';
  const ids: string[] = [];
  let total = -1;
  for (let page = 1; page <= 200; page++) {
    const res = await call('GET', `${path}${sep}limit=${limit}&page=${page}`);
    expectStatus(res, [200], `GET ${path} page ${page}`);
    total = res.body.meta_data.total;
    const got = idsOf(res.body);
    ids.push(...got);
    if (got.length < limit || ids.length >= total) break;
  }
  return { ids, total };
};
const creatorIds = (body: any) => body.data.creators.map((c: any) => c.id as string);
const showIds = (body: any) => body.data.shows.map((s: any) => s.id as string);
const episodeIds = (body: any) => body.data.map((e: any) => e.episode_id as string);

const expectList = async (
  path: string,
  limit: number,
  idsOf: (body: any) => string[],
  expected: string[],
) => {
  const { ids, total } = await allPages(path, limit, idsOf);
  expect({ path, ids, total }).toEqual({ path, ids: expected, total: expected.length });
};

const phases: string[] = [];
let phaseStart = Date.now();
const phase = (name: string) => {
  phases.push(`${name} ${Date.now() - phaseStart}ms`);
  phaseStart = Date.now();
};

const checkInvariant = async (runNo: number) => {
  phaseStart = Date.now();
  phases.length = 0;
  await settle();
  phase('settle');
  // (a) Every view equals a from-scratch rebuild.
  const report = await rebuildViews({ dryRun: true });
  expect(
    {
      put: report.put,
      deleted: report.deleted,
      guideKeys: report.guideKeys,
      showProfiles: report.showProfiles,
      examples: report.examples,
      projectorFailures,
    },
    `run ${runNo}: views differ from a rebuild`,
  ).toEqual({ put: 0, deleted: 0, guideKeys: 0, showProfiles: 0, examples: [], projectorFailures: [] });

  phase('rebuild');
  const sources = await scanSources();
  phase('scan');
  const creators = sources.creators.filter((c) => !c.suspended_at);
  const shows = sources.shows;
  const showById = new Map(shows.map((s) => [s.id as string, s]));

  // The list and search checks, run side by side once collected (read-only requests).
  const checks: Array<() => Promise<void>> = [];
  const later = (check: () => Promise<void>) => checks.push(check);
  // (b) Lists: creators per category, tier and sort, every page.
  const cats = ['all', ...new Set(creators.map((c) => c.category as string))];
  const tiers = ['all', ...new Set(creators.map((c) => c.tier as string))];
  // Every filter combination that has creators in one sort order per run (rotating), paging in it.
  const sort = Object.keys(creatorSorts)[runNo % 3]!;
  for (const cat of cats)
    for (const tier of tiers) {
      const expected = creators
        .filter((c) => (cat === 'all' || c.category === cat) && (tier === 'all' || c.tier === tier))
        .sort(creatorSorts[sort])
        .map((c) => c.id);
      const query = [
        cat === 'all' ? '' : `category=${cat}`,
        tier === 'all' ? '' : `tier=${tier}`,
        `sort=${sort}`,
      ].filter(Boolean);
      later(() => expectList(`/creators?${query.join('&')}`, 100, creatorIds, expected));
    }
  // Paging: small pages concatenate to the whole list.
  later(() =>
    expectList(
      `/creators?sort=${sort}`,
      2,
      creatorIds,
      [...creators].sort(creatorSorts[sort]).map((c) => c.id),
    ),
  );
  // A filter nobody matches: empty, total 0.
  const emptyCat = CATEGORY_IDS.find((c) => !creators.some((x) => x.category === c));
  if (emptyCat) later(() => expectList(`/creators?category=${emptyCat}`, 10, creatorIds, []));
  const emptyTier = TIER_IDS.find((t) => !creators.some((x) => x.tier === t));
  if (emptyTier) later(() => expectList(`/creators?tier=${emptyTier}`, 10, creatorIds, []));
  // Featured: the featured public creators, most popular first.
  later(() =>
    expectList(
      '/creators/featured',
      100,
      creatorIds,
      creators
        .filter((c) => c.is_featured)
        .sort(creatorSorts.most_popular)
        .map((c) => c.id),
    ),
  );
  // Categories: creators per category.
  later(async () => {
    const categories = await call('GET', '/categories');
    expectStatus(categories, [200], 'GET /categories');
    expect(Object.fromEntries(categories.body.data.map((c: any) => [c.id, c.creator_count]))).toEqual(
      Object.fromEntries(CATEGORY_IDS.map((id) => [id, creators.filter((c) => c.category === id).length])),
    );
  });

  // Shows: per sort, each category and rating present, both flags each way, a full combination.
  const flagQuery = (name: string, value: boolean | undefined) =>
    value === undefined ? '' : `${name}=${value}`;
  const showFilters: Array<{ category?: string; rating?: string; is_new?: boolean; is_featured?: boolean }> =
    [
      {},
      ...[...new Set(shows.map((s) => s.category as string))].map((category) => ({ category })),
      ...[...new Set(shows.map((s) => s.rating as string))].map((rating) => ({ rating })),
      { is_new: true },
      { is_new: false },
      { is_featured: true },
      { is_featured: false },
      ...shows.slice(0, 2).map((s) => ({
        category: s.category,
        rating: s.rating,
        is_new: s.is_new,
        is_featured: s.is_featured,
      })),
      { category: CATEGORY_IDS.find((c) => !shows.some((s) => s.category === c)) },
    ];
  for (const f of showFilters) {
    const expected = shows
      .filter(
        (s) =>
          (f.category === undefined || s.category === f.category) &&
          (f.rating === undefined || s.rating === f.rating) &&
          (f.is_new === undefined || Boolean(s.is_new) === f.is_new) &&
          (f.is_featured === undefined || Boolean(s.is_featured) === f.is_featured),
      )
      .sort(showSorts[sort])
      .map((s) => s.id);
    const query = [
      f.category ? `category=${f.category}` : '',
      f.rating ? `rating=${f.rating}` : '',
      flagQuery('is_new', f.is_new),
      flagQuery('is_featured', f.is_featured),
      `sort=${sort}`,
    ].filter(Boolean);
    later(() => expectList(`/shows?${query.join('&')}`, 100, showIds, expected));
  }
  later(() =>
    expectList(
      `/shows?sort=${sort}`,
      2,
      showIds,
      [...shows].sort(showSorts[sort]).map((s) => s.id),
    ),
  );

  // Most viewed episodes: views desc, ties by episode id; per category of the episode's show.
  const episodeOrder = (a: Source, b: Source) => Number(b.views) - Number(a.views) || byString(a.id, b.id);
  const episodes = sources.episodes.filter((e) => showById.has(e.show_id));
  expect(sources.episodes.length, 'episodes of no show (deleted with their show)').toBe(episodes.length);
  for (const cat of ['all', ...new Set(shows.map((s) => s.category as string))]) {
    const expected = episodes
      .filter((e) => cat === 'all' || showById.get(e.show_id)!.category === cat)
      .sort(episodeOrder)
      .map((e) => e.id);
    later(() =>
      expectList(
        `/shows/episodes/most-viewed${cat === 'all' ? '' : `?category=${cat}`}`,
        cat === 'all' ? 3 : 100,
        episodeIds,
        expected,
      ),
    );
  }

  // Search (a rotating sample of 3 creators and 4 shows per run, and the shows deleted since the
  // last check): a creator by name and by handle, a show by its title; a deleted show no more.
  const sample = <T>(list: T[], n: number) =>
    list.length <= n ? list : Array.from({ length: n }, (_, i) => list[(runNo * n + i) % list.length]!);
  for (const c of sample(creators, 3)) {
    for (const q of [c.name as string, String(c.slug).replace(/_/g, ' ')]) {
      later(async () => {
        const res = await call('GET', `/creators/search?q=${encodeURIComponent(q)}&limit=100`);
        expectStatus(res, [200], 'creator search');
        expect(creatorIds(res.body), `search ${q}`).toContain(c.id);
      });
    }
  }
  for (const s of sample(shows, 4))
    later(async () => {
      const res = await call('GET', `/shows/search?q=${encodeURIComponent(s.title)}&limit=100`);
      expectStatus(res, [200], 'show search');
      expect(showIds(res.body), `search ${s.title}`).toContain(s.id);
      // Its card carries its creator's name, which follows a rename (the projector's fan-out).
      const hit = res.body.data.shows.find((x: any) => x.id === s.id);
      const owner = sources.creators.find((c) => c.id === s.creator_id);
      expect(hit.creator.name, `creator name on ${s.title}`).toBe(owner?.name ?? '');
    });
  for (const d of model.deletedShows.splice(0))
    later(async () => {
      const res = await call('GET', `/shows/search?q=${encodeURIComponent(d.title)}&limit=100`);
      expect(showIds(res.body), `search for deleted ${d.title}`).not.toContain(d.id);
    });
  // Every list and search request above is a read of settled views: issued side by side.
  await inParallel(checks, CHECKS_AT_ONCE, (check) => check());
  phase('lists and search');
  // (c) Counters: what the operations made.
  const count = (set: Set<string>, id: string) => [...set].filter((k) => k.endsWith(`|${id}`)).length;
  for (const c of model.creators) {
    const source = creators.find((x) => x.id === c.id);
    expect(source, `creator ${c.id}`).toBeDefined();
    expect(
      { subscribers: source!.subscribers, followers: source!.followers ?? 0, views: source!.views },
      `counters of creator ${c.id}`,
    ).toEqual({
      subscribers: count(model.subscriptions, c.id),
      followers: count(model.follows, c.id),
      views: (model.creatorViewsAtStart.get(c.id) ?? 0) + (model.creatorViews.get(c.id) ?? 0),
    });
  }
  // As the API answers them (a rotating sample of 2 creators per run).
  for (const c of sample(model.creators, 2)) {
    const read = await call('GET', `/creators/${c.id}`);
    const metrics = read.body.data.find((b: any) => b.type === 'user').audience_metrics;
    expect({ subscribers: metrics.subscribers, followers: metrics.followers }, `metrics of ${c.id}`).toEqual({
      subscribers: count(model.subscriptions, c.id),
      followers: count(model.follows, c.id),
    });
  }
  expect(new Set(shows.map((s) => s.id))).toEqual(new Set(model.shows.map((s) => s.id)));
  for (const s of shows)
    expect({ total: s.total_views, week: s.views_7d }, `views of show ${s.id}`).toEqual({
      total: model.showViews.get(s.id) ?? 0,
      week: model.showViews.get(s.id) ?? 0,
    });
  expect(new Set(episodes.map((e) => e.id))).toEqual(new Set(model.episodes.map((e) => e.id)));
  for (const e of episodes)
    expect(e.views, `views of episode ${e.id}`).toBe(model.episodeViews.get(e.id) ?? 0);
  phase('counters');
  console.info(`check ${runNo}: ${phases.join(', ')}`);
};

describe('the projection invariant (issue 16 item 6)', () => {
  it(
    'after random operations through the API and a drain, views equal a rebuild and lists equal brute force',
    async () => {
      const started = Date.now();
      let runs = 0;
      let operations = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 3, maxLength: MAX_OPS }), async (ops) => {
          runs++;
          operations += ops.length;
          const t0 = Date.now();
          for (const op of ops) await apply(op);
          const t1 = Date.now();
          await checkInvariant(runs);
          console.info(
            `invariant run ${runs}: ${ops.length} operations (${ops.map((o) => o.t).join(' ')}) in ${t1 - t0} ms, checked in ${Date.now() - t1} ms; ` +
              `${model.creators.length} creators, ${model.shows.length} shows, ${model.episodes.length} episodes`,
          );
        }),
        // State accumulates over runs (one table), so a shrunk sequence would not replay alone:
        // stop at the first failure and report the sequence as generated.
        { numRuns: NUM_RUNS, endOnFailure: true },
      );
      console.info(
        `invariant: ${runs} runs, ${operations} operations, ${Date.now() - started} ms (table ${TABLE})`,
      );
      expect(runs).toBe(NUM_RUNS);
    },
    NUM_RUNS * 120_000,
  );
});
