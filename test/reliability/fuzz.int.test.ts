import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { routes } from '../../functions/routes.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { type TestApi, testApi, writesOf } from '../support/api.ts';
import { inParallel } from '../support/parallel.ts';
import { studioCreator } from '../support/studio.ts';

/**
 * Property-based fuzzing of every route: requests generated from each contract's zod schemas
 * (valid-looking and hostile values) plus hostile transport variants. Expect: never a 5xx, always
 * the route's envelope (the test client checks every JSON body against docs/openapi.json), and no
 * write from a rejected request other than its rate-limit counter.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 150);
/** Routes fuzzed side by side (docs/conventions.md "Test time"). */
const ROUTES_AT_ONCE = 5;
const fuzzed = routes.filter((r) => r.path !== '$default' && !r.path.startsWith('/docs'));
let api: TestApi;
let token: string;
const figures = { requests: 0, fiveHundreds: 0, rejected: 0 };

beforeAll(async () => {
  api = await testApi();
  token = (await issueAccessToken(`acc_fuzz_${randomUUID()}`, new Date())).token;
});

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '../../etc/passwd',
    '%00',
    '\u202E\u200B',
    '\uD800',
    '💥'.repeat(50),
    'a'.repeat(5000),
    "'; DROP TABLE x;--",
    '{"$ne":1}',
    '__proto__',
    'constructor',
    'NaN',
    '-1',
    '1e309',
    '9007199254740993',
    'true',
    'null',
  ),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1.5),
);
/**
 * The edges of what a user can store (issue 33): URLs just over 2,048 characters and 50 KB long,
 * dates outside the window (1970 to 10 years ahead; a program no earlier than a day ago), and
 * lists far over their bounds.
 */
const LONG_URL = (length: number) => `https://images.example.net/${'a'.repeat(length - 27)}`;
const FAR_DATES = [
  '9999-12-31T23:00:00Z',
  '0000-01-01T00:00:00+01:00',
  '1969-12-31T23:59:59Z',
  '2020-01-10T20:00:00Z',
  '+010000-01-01T00:00:00Z',
] as const;
const storedEdge = fc.oneof(
  fc.constantFrom(LONG_URL(2049), LONG_URL(50_000), 'https://cdn.example.com/ivs/x.m3u8', ...FAR_DATES),
  fc.constantFrom(11, 1000).map((n) => Array.from({ length: n }, (_, i) => `tag${i}`)),
);
const jsonish = fc.oneof(
  storedEdge,
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

const keysOf = (schema: z.ZodMiniType | undefined): string[] => {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(json.properties ?? {});
};

/** A request for `row`: params and body keyed by the schema's own fields, filled with hostile values. */
const requestFor = (row: (typeof fuzzed)[number]) => {
  const s = row.request ?? {};
  const pathKeys = [...row.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc.record({
    path: fc.tuple(
      ...pathKeys.map(() =>
        fc.oneof(hostileString, fc.constantFrom('cr_0001', 'sh_0001', 'VIDEO', 'ep_0001_s1e01')),
      ),
    ),
    query: fc.dictionary(
      fc.oneof(fc.constantFrom(...keysOf(s.query), 'page', 'limit', 'unknown'), fc.string({ maxLength: 8 })),
      fc.oneof(hostileString, hostileNumber.map(String)),
      { maxKeys: 5 },
    ),
    body: fc.oneof(
      fc
        .dictionary(
          fc.oneof(fc.constantFrom(...keysOf(s.body), 'extra'), fc.string({ maxLength: 8 })),
          jsonish,
          { maxKeys: 8 },
        )
        .map((o) => JSON.stringify(o)),
      fc.json(),
      fc.constantFrom(
        '{"a":',
        '{',
        '[',
        'null',
        '""',
        deep(5000),
        `{"events":${deep(200)}}`,
        '{"__proto__":{"admin":true}}',
        `{"email":"a@b.co","email":"x"}`,
      ),
    ),
    contentType: fc.constantFrom(
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      undefined,
    ),
    withToken: fc.boolean(),
  });
};

const send = async (
  row: (typeof fuzzed)[number],
  r: {
    path: string[];
    query: Record<string, string>;
    body: string;
    contentType?: string;
    withToken: boolean;
  },
) => {
  let i = 0;
  const path = row.path.replace(/\{\w+\}/g, () => encodeURIComponent(r.path[i++] ?? 'x'));
  const qs = new URLSearchParams(r.query).toString();
  const headers: Record<string, string> = {
    'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  };
  if (r.contentType) headers['content-type'] = r.contentType;
  const res = await api.request(row.method === 'ANY' ? 'GET' : row.method, `${path}${qs ? `?${qs}` : ''}`, {
    rawBody: row.method === 'GET' ? undefined : r.body,
    token: r.withToken ? token : undefined,
    headers,
  });
  figures.requests++;
  if (res.status >= 500) figures.fiveHundreds++;
  expect(res.status, `${row.method} ${path} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
  if (res.status >= 400) {
    figures.rejected++;
    // This request's own writes: the routes run side by side (see below).
    const writes = writesOf(res.headers.get('apigw-requestid')).filter((w) => !w.includes(':RATE#'));
    expect(writes, `${row.method} ${path} was rejected with ${res.status} but wrote`).toEqual([]);
    if (res.status !== 401 || row.envelope !== 'reactions') {
      expect(res.body?.status ?? (res.body?.success === false ? 'error' : undefined)).toBe('error');
    }
  }
};

describe('the edges of stored input (issue 33)', () => {
  it('refuses each edge with a 422 naming the field, on every route that stores it', async () => {
    const creator = await studioCreator(api, 'music');
    const as = { token: creator.token };
    const show = await api.post('/studio/shows', {
      ...as,
      body: { title: 'Edges', description: 'd', category: 'music', rating: 'TV-PG' },
    });
    expect(show.status).toBe(201);
    const showId = show.body.data.show_id;
    const episode = { season: 1, episode_number: 1, title: 'E', duration_seconds: 60, is_free: true };
    const program = { title: 'P', rating: 'TV-PG', duration_minutes: 30 };
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ...[LONG_URL(2049), LONG_URL(50_000)].flatMap(
        (url): Array<[string, string, Record<string, unknown>, string]> => [
          [
            'POST',
            '/studio/shows',
            { title: 'T', description: 'd', category: 'music', rating: 'TV-PG', thumbnail_url: url },
            'thumbnail_url',
          ],
          ['PATCH', `/studio/shows/${showId}`, { thumbnail_url: url }, 'thumbnail_url'],
          ['POST', `/studio/shows/${showId}/episodes`, { ...episode, stream_url: url }, 'stream_url'],
          ['PATCH', '/studio/profile', { avatar_url: url }, 'avatar_url'],
          [
            'POST',
            '/webhooks/subscriptions',
            {
              type: 'creator.live',
              version: '1',
              condition: { creator_id: creator.creatorId },
              callback: url,
            },
            'callback',
          ],
        ],
      ),
      ...FAR_DATES.flatMap(
        (date): Array<[string, string, Record<string, unknown>, string]> => [
          // A past air date inside the window is fine (2020 aired); a program there is not.
          ...(date.startsWith('2020')
            ? []
            : [
                ['POST', `/studio/shows/${showId}/episodes`, { ...episode, air_date: date }, 'air_date'] as [
                  string,
                  string,
                  Record<string, unknown>,
                  string,
                ],
              ]),
          ['POST', '/studio/channel/programs', { ...program, start_time: date }, 'start_time'],
        ],
      ),
      ...FAR_DATES.filter((d) => !d.startsWith('2020')).map(
        (date): [string, string, Record<string, unknown>, string] => [
          'POST',
          '/analytics/video/session/start',
          { content_id: 'ep_0001_s1e01', device_type: 'web', client_ts: date },
          'client_ts',
        ],
      ),
      ['PATCH', `/studio/shows/${showId}`, { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags'],
    ];
    await inParallel(cases, ROUTES_AT_ONCE, async ([method, path, body, field]) => {
      const res = await api.request(method, path, {
        ...as,
        body,
        headers: { 'x-forwarded-for': '10.7.0.1' },
      });
      figures.requests++;
      expect(res.status, `${method} ${path} ${field}=${String(body[field]).slice(0, 40)}`).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  }, 120_000);
});

describe('fuzzing every route', () => {
  it(`answers ${RUNS_PER_ROUTE} generated requests per route without a 5xx, in the envelope, writing nothing when rejecting`, async () => {
    // Routes run ROUTES_AT_ONCE at a time, each its own property with the same cases as before (seed
    // 42), its requests one after another (so no route's budget is spent faster than before); each
    // request's writes are told apart by its request id (`writesOf`).
    await inParallel(fuzzed, ROUTES_AT_ONCE, (row) =>
      fc.assert(
        fc.asyncProperty(requestFor(row), (r) => send(row, r)),
        { numRuns: RUNS_PER_ROUTE, seed: 42 },
      ),
    );
    // Oversized bodies, once per body-taking route.
    await inParallel(
      fuzzed.filter((r) => r.method !== 'GET'),
      ROUTES_AT_ONCE,
      async (row) => {
        const res = await api.request(row.method, row.path.replace(/\{\w+\}/g, 'cr_0001'), {
          rawBody: `{"pad":"${'x'.repeat(300 * 1024)}"}`,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.8.0.1' },
        });
        figures.requests++;
        expect(res.status).toBe(413);
      },
    );
    console.info(
      `fuzz: ${figures.requests} requests over ${fuzzed.length} routes, ${figures.rejected} rejected, ${figures.fiveHundreds} 5xx`,
    );
    expect(figures.requests).toBeGreaterThanOrEqual(fuzzed.length * RUNS_PER_ROUTE);
  }, 1_200_000); // a hang guard: 44 s alone; past 600 s under load 15 beside another worker
});
