import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { clock } from '../../shared/clock.ts';
import { issueAccessToken, signJwt } from '../../shared/identity/access-token.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../shared/identity/token-claims.ts';
import { rateLimitsOf, routeKey } from '../../shared/routing/route.ts';
import { newSessionId } from '../../shared/analytics/playback-count.ts';
import { waitFor } from '../support/wait.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { subscribePaid } from '../support/payments.ts';
import { sellingCreators } from '../../scripts/local/stripe/demo.ts';
import { type ApiResponse, type TestApi, testApi } from '../support/api.ts';
import { lastOpenLiveChannel } from '../support/catalog.ts';
import { inParallel } from '../support/parallel.ts';

/**
 * Abuse and access control, driven by the route table so a new route cannot slip past:
 * the token matrix on every route that reads a token, object ownership (BOLA) on every
 * authenticated route, and the rate limits on every rate-limited route.
 */
let api: TestApi;
let live: { id: string; channel: string };
beforeAll(async () => {
  api = await testApi();
  live = lastOpenLiveChannel(api.seededAt);
});

/**
 * Budgets are spent in parallel (docs/conventions.md "Test time"): this many routes side by side,
 * each sending this many requests at a time.
 */
const ROUTES_AT_ONCE = 4;
const REQUESTS_AT_ONCE = 6;

const account = () => `acc_abuse_${randomUUID()}`;
const viewer = async () => (await issueAccessToken(account(), new Date())).token;
const address = () => `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
/** A concrete path for a route: path parameters filled with a real live creator. */
const concrete = (path: string) =>
  path.replace('{id}', live.id).replace('{targetType}', 'VIDEO').replace('{targetId}', 'ep_abuse');

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const claims = (over: Record<string, unknown> = {}) => {
  const iat = Math.floor(Date.now() / 1000);
  return {
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    sub: account(),
    iat,
    exp: iat + 600,
    token_use: 'access',
    ...over,
  };
};

describe('the token matrix on every route that reads a bearer token', () => {
  const authenticated = routes.filter((r) => r.auth !== 'none' && r.path !== '$default');

  it('answers 401 with the route envelope for each bad credential, before any other check', async () => {
    const good = await viewer();
    const [header, , signature] = good.split('.');
    const bad: Record<string, string | undefined> = {
      malformed: 'Bearer not-a-jwt',
      'wrong scheme': `Basic ${good}`,
      tampered: `Bearer ${header}.${b64(claims({ sub: 'acc_demo_viewer' }))}.${signature}`,
      'alg none': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`,
      expired: `Bearer ${await signJwt(claims({ iat: 1_000, exp: 2_000 }))}`,
      'other issuer': `Bearer ${await signJwt(claims({ iss: 'https://evil.example.com' }))}`,
      'other audience': `Bearer ${await signJwt(claims({ aud: 'someone-else' }))}`,
      'refresh token as access token': `Bearer ${await signJwt(claims({ token_use: 'refresh' }))}`,
    };
    let requests = 0;
    for (const row of authenticated) {
      const cases = row.auth === 'required' ? { ...bad, missing: undefined } : bad;
      for (const [name, authorization] of Object.entries(cases)) {
        const res = await api.request(row.method, concrete(row.path), {
          headers: authorization === undefined ? {} : { authorization },
          body: row.method === 'GET' ? undefined : {},
        });
        requests++;
        expect(res.status, `${routeKey(row)} with ${name}`).toBe(401);
        if (row.envelope === 'reactions')
          expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
        else expect(res.body).toMatchObject({ status: 'error', code: 401, message: expect.any(String) });
      }
    }
    console.info(`token matrix: ${requests} requests over ${authenticated.length} routes, all 401`);
    expect(requests).toBeGreaterThan(authenticated.length * 8);
  });
});

/**
 * Every authenticated route, and why another account cannot reach someone else's object
 * through it. `owned`: the route names an object an account owns (tested below);
 * `caller`: the route acts only on the caller's own records (the id comes from the token).
 */
const OWNERSHIP: Record<string, 'owned' | `caller: ${string}`> = {
  'GET /home': 'caller: personal sections read the caller only',
  'GET /creators/{id}': 'caller: user_state is the caller’s follow/subscription',
  'GET /tv/v3/creators/{id}': 'caller: user_state is the caller’s',
  'GET /tv/v3/shows/{id}': 'caller: locks follow the caller’s entitlements',
  'GET /creators/{id}/channel/live': 'caller: user_state is the caller’s',
  'GET /creators/{id}/channel/live/stream': 'caller: the playback token is bound to the caller',
  'GET /creators/{id}/channel/live/qualities': 'owned',
  'POST /creators/{id}/channel/live/watch': 'caller: opens a session for the caller',
  'PATCH /creators/{id}/channel/live/watch': 'owned',
  'DELETE /creators/{id}/channel/live/watch': 'owned',
  'GET /creators/{id}/channel/live/heartbeat': 'owned',
  'GET /creators/{id}/channel/ondemand': 'caller: locks follow the caller’s entitlements',
  'POST /creators/{id}/follow': 'caller: the caller’s follow record',
  'DELETE /creators/{id}/follow': 'caller: the caller’s follow record',
  'POST /creators/{id}/subscription': 'caller: the caller’s subscription record',
  'DELETE /creators/{id}/subscription': 'caller: cancels the caller’s own record (tested below)',
  'PUT /onboarding/account/handle': 'caller: the caller’s account',
  'POST /onboarding/category': 'caller: the caller’s account',
  'POST /onboarding/social/connect': 'caller: the caller’s account',
  'POST /auth/logout': 'owned',
  'POST /auth/email/verification': 'caller: mails a code to the caller’s own address',
  'POST /auth/email/verify': 'caller: verifies the caller’s own pending code',
  'POST /v3/reactions': 'caller: a reaction is keyed by the caller',
  'DELETE /v3/reactions': 'caller: removes the caller’s own reaction, idempotent (tested below)',
  'GET /v3/reactions/summary/{targetType}/{targetId}': 'owned',
  'POST /reports': 'caller: a report is keyed by the caller',
  'GET /me/continue-watching': 'owned',
  // The caller's own account (docs/accounts.md; test/accounts/*.int.test.ts).
  'GET /me': 'caller: the caller’s own account',
  'PATCH /me': 'caller: the caller’s own account',
  'POST /auth/step-up': 'caller: checks the caller’s own password, stamps the caller’s own sign-in',
  'POST /me/password': 'caller: the caller’s own password',
  'POST /me/email': 'caller: the caller’s own address',
  'POST /me/email/verify': 'caller: the caller’s own pending change',
  'GET /me/sessions': 'caller: lists the caller’s own sign-ins',
  'DELETE /me/sessions': 'caller: revokes the caller’s own other sign-ins',
  'DELETE /me/sessions/{id}': 'owned',
  // The studio: the caller's creator is the caller's account; another creator's show, episode
  // or program is 404 with nothing changed (test/studio/shows.int.test.ts, schedule.int.test.ts).
  'PATCH /studio/profile': 'caller: edits the caller’s own creator profile',
  'POST /studio/shows': 'caller: creates a show of the caller’s creator',
  'PATCH /studio/shows/{id}': 'owned',
  'DELETE /studio/shows/{id}': 'owned',
  'POST /studio/shows/{id}/episodes': 'owned',
  'PATCH /studio/shows/{id}/episodes/{episode_id}': 'owned',
  'DELETE /studio/shows/{id}/episodes/{episode_id}': 'owned',
  'POST /studio/channel/programs': 'caller: schedules on the caller’s own channel',
  'PATCH /studio/channel/programs/{program_id}': 'owned',
  'DELETE /studio/channel/programs/{program_id}': 'owned',
  // The caller's own IVS channel, found from the caller's creator: no id to name another's
  // (another creator sees only their own, or 404: test/studio/channel.int.test.ts).
  'POST /studio/channel': 'caller: provisions the caller’s own channel',
  'GET /studio/channel': 'caller: the caller’s own channel and stream key',
  'POST /studio/channel/stream-key/rotate': 'caller: rotates the caller’s own stream key',
  // Webhook subscriptions: another account's id is 404 on get, delete and rotate, and never
  // listed (test/webhooks/webhooks.int.test.ts, ownership).
  'POST /webhooks/subscriptions': 'caller: a creator subscribes to their own channel, a partner by approval',
  'GET /webhooks/subscriptions': 'caller: lists the caller’s own subscriptions',
  'GET /webhooks/subscriptions/{id}': 'owned',
  'DELETE /webhooks/subscriptions/{id}': 'owned',
  'POST /webhooks/subscriptions/{id}/secret/rotate': 'owned',
  // Payments (issue 36): no id of another account's in any of them; each acts on the token's
  // account or its creator (test/payments, test/shows/paywall.int.test.ts).
  'GET /me/entitlements': 'caller: lists the caller’s own entitlements',
  'POST /checkout': 'caller: a checkout for the caller’s account (the creator or item is public)',
  'POST /billing/portal': 'caller: the portal of the caller’s own Stripe customer',
  'GET /studio/payouts': 'caller: the caller’s own creator’s payouts and earnings',
  'POST /studio/payouts/onboarding': 'caller: onboards the caller’s own creator’s Stripe account',
  'PUT /studio/plan': 'caller: sets the caller’s own creator’s plan',
  // App stores (issue 37): a signed transaction or purchase token is the caller's only when its
  // appAccountToken / link says so, else 403 (test/stores/apple.int.test.ts, google.int.test.ts).
  'POST /billing/apple/transactions': 'caller: the transaction’s appAccountToken must be the caller’s',
  'POST /billing/google/purchases':
    'caller: links a purchase to the caller; one linked to another account is refused',
  // Export, deletion and the second factor act on the token's account (test/accounts/*).
  'POST /me/export': 'caller: exports the caller’s own account',
  'GET /me/export': 'caller: the caller’s own export',
  'DELETE /me': 'caller: deletes the caller’s own account',
  'POST /me/mfa/totp': 'caller: enrols the caller’s own second factor',
  'POST /me/mfa/totp/confirm': 'caller: confirms the caller’s own pending factor',
  'DELETE /me/mfa/totp': 'caller: removes the caller’s own second factor',
  'POST /me/mfa/totp/recovery-codes': 'caller: replaces the caller’s own recovery codes',
  // Live state (issue 40): counts and subscribe tokens for the caller; cues on the caller's channel.
  'POST /creators/{id}/channel/live/reactions':
    'caller: counts into the channel’s tick totals, nothing of another account',
  'GET /creators/{id}/channel/live/realtime':
    'caller: a subscribe token decided by the caller’s own entitlement',
  'POST /studio/channel/cues': 'caller: cues on the caller’s own channel',
  // Chat (issue 39): capabilities from the caller's own account; moderation on the caller's own
  // channel or one they were appointed to, else 403/404 (test/chat/chat.int.test.ts).
  'POST /creators/{id}/channel/chat/token': 'caller: capabilities decided from the caller’s own account',
  'GET /studio/chat/settings': 'caller: a channel the caller owns or moderates',
  'PUT /studio/chat/settings': 'caller: a channel the caller owns or moderates',
  'PUT /studio/chat/moderators/{account_id}': 'caller: appoints on the caller’s own channel',
  'DELETE /studio/chat/moderators/{account_id}': 'caller: removes from the caller’s own channel',
  'POST /studio/chat/bans': 'caller: a channel the caller owns or moderates',
  'DELETE /studio/chat/bans/{account_id}': 'caller: a channel the caller owns or moderates',
  'DELETE /studio/chat/messages/{message_id}': 'caller: a message in a room the caller owns or moderates',
  ...Object.fromEntries(
    routes
      .filter((r) => r.path.startsWith('/analytics/'))
      .map((r) => [
        routeKey(r),
        'caller: write-only telemetry; the account recorded is the token’s, never read back',
      ]),
  ),
};

describe('object ownership (BOLA) on every authenticated route', () => {
  it('classifies every authenticated route', () => {
    const authenticated = routes.filter((r) => r.auth !== 'none' && r.path !== '$default').map(routeKey);
    expect(Object.keys(OWNERSHIP).sort()).toEqual(authenticated.sort());
  });

  it('watch sessions: another account gets 404 on heartbeat, PATCH, DELETE and qualities; the owner’s session is untouched', async () => {
    const owner = await viewer();
    const other = await viewer();
    const base = `/creators/${live.id}/channel/live`;
    const opened = await api.post(`${base}/watch`, {
      token: owner,
      body: { channel_id: live.channel, device_type: 'web', quality: '720p' },
    });
    const sid = opened.body.data.session.session_id;
    const attempts: ApiResponse[] = [
      await api.get(`${base}/heartbeat?session_id=${sid}`, { token: other }),
      await api.patch(`${base}/watch`, { token: other, body: { session_id: sid, quality: '360p' } }),
      await api.delete(`${base}/watch?session_id=${sid}`, { token: other }),
      await api.get(`${base}/qualities?session_id=${sid}`, { token: other }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    const qualities = await api.get(`${base}/qualities?session_id=${sid}`, { token: owner });
    expect(qualities.status).toBe(200);
    expect(JSON.stringify(qualities.body.data)).toContain('720p');
    const beat = await api.get(`${base}/heartbeat?session_id=${sid}`, { token: owner });
    expect(beat.body.data.session_valid).toBe(true);
  });

  it('reactions: another account cannot remove a reaction (its DELETE is a no-op on its own record) nor see whose it is', async () => {
    const owner = await viewer();
    const other = await viewer();
    const target = { targetType: 'POST', targetId: `post_bola_${randomUUID().slice(0, 8)}` };
    expect((await api.post('/v3/reactions', { token: owner, body: { ...target, emoji: '🔥' } })).status).toBe(
      201,
    );
    const removal = await api.delete('/v3/reactions', { token: other, body: { ...target, emoji: '🔥' } });
    expect(removal.status).toBe(204);
    const seenByOther = await api.get(`/v3/reactions/summary/${target.targetType}/${target.targetId}`, {
      token: other,
    });
    expect(seenByOther.body.data).toMatchObject({ summary: [{ emoji: '🔥', count: 1 }], userReactions: [] });
    const seenByOwner = await api.get(`/v3/reactions/summary/${target.targetType}/${target.targetId}`, {
      token: owner,
    });
    expect(seenByOwner.body.data.userReactions).toEqual(['🔥']);
  });

  it('logout: another account cannot revoke someone’s refresh token', async () => {
    const id = randomUUID().replace(/-/g, '').slice(0, 10);
    const created = await api.post('/onboarding/account/create', {
      headers: { 'x-forwarded-for': address() },
      body: {
        email: `bola.${id}@example.com`,
        password: 'correct-horse-1',
        creator_name: 'B',
        handle: `bola_${id}`,
        agreed_to_terms: true,
      },
    });
    const { refresh_token } = created.body.data;
    const out = await api.post('/auth/logout', { token: await viewer(), body: { refresh_token } });
    // 204 either way: the answer must not tell whether a token belongs to someone else.
    expect(out.status).toBe(204);
    const refreshed = await api.post('/auth/refresh', {
      headers: { 'x-forwarded-for': address() },
      body: { refresh_token },
    });
    expect(refreshed.status).toBe(200);
  });

  it('subscriptions and continue-watching: each account sees and cancels only its own', async () => {
    const owner = await viewer();
    const other = await viewer();
    // A demo creator who sells (onboarded for payouts at start: scripts/local/stripe/demo.ts).
    const seller = sellingCreators(generateCatalog({ now: api.seededAt, seed: 42 })).at(-1)!.id;
    await subscribePaid(api, owner, seller);
    const cancel = await api.delete(`/creators/${seller}/subscription`, { token: other });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.user_subscription.is_subscribed).toBe(false);
    const detail = await api.get(`/creators/${seller}`, { token: owner });
    expect(detail.body.data[0].user_state.is_subscribed).toBe(true);
    // A heartbeat from the owner records a playhead; the other account's list stays empty.
    const episode = generateCatalog({ now: api.seededAt, seed: 42 }).episodes.find(
      (e) => e.duration_seconds > 1200,
    )!;
    const beat = (token: string, session_id: string) =>
      api.post('/analytics/video/session/heartbeat', {
        token,
        body: {
          event_id: randomUUID(),
          session_id,
          content_id: episode.id,
          device_type: 'web',
          client_ts: new Date().toISOString(),
          position_seconds: 300,
          playing_seconds: 30,
        },
      });
    const session = randomUUID();
    expect((await beat(owner, session)).status).toBe(200);
    const mine = await api.get('/me/continue-watching', { token: owner });
    expect(mine.body.data.items.map((i: { content_id: string }) => i.content_id)).toEqual([episode.id]);
    const theirs = await api.get('/me/continue-watching', { token: other });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.items).toEqual([]);
  });
});

describe('views count only for sessions the platform started (issue 33)', () => {
  it('forged, foreign, other-episode and faster-than-wall-time heartbeats count no view; a real session counts one', async () => {
    const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
    const target = catalog.episodes.at(-3)!;
    const views = async () =>
      Number(
        (await api.get(`/shows/${target.show_id}`)).body.data.episodes.find(
          (e: { episode_id: string }) => e.episode_id === target.id,
        ).views,
      );
    const realNow = clock.now;
    let now = new Date();
    clock.now = () => now;
    onTestFinished(() => {
      clock.now = realNow;
    });
    const at = (seconds: number, t0: Date) => new Date(t0.getTime() + seconds * 1000);
    const beat = (session_id: string, playing: number, token?: string, content_id = target.id) =>
      api.post('/analytics/video/session/heartbeat', {
        token,
        headers: { 'x-forwarded-for': address() },
        body: { session_id, content_id, device_type: 'web', position_seconds: 100, playing_seconds: playing },
      });
    const start = async (token?: string) => {
      const res = await api.post('/analytics/video/session/start', {
        token,
        headers: { 'x-forwarded-for': address() },
        body: { content_id: target.id, device_type: 'web' },
      });
      expect(res.status).toBe(201);
      return res.body.data.session_id as string;
    };
    const before = await views();
    const t0 = now;
    const [owner, other] = [await viewer(), await viewer()];
    const anonymous = await start();
    const signedIn = await start(owner);
    now = at(10, t0);
    // Session ids the platform never issued (a random UUIDv4, a well-formed UUIDv7): 200, no view.
    for (const forged of [randomUUID(), newSessionId(t0), newSessionId(at(-3600, t0))]) {
      const res = await beat(forged, 30);
      expect(res.status).toBe(200);
    }
    // 30 s claimed 10 s after the start: more than the wall time, no view.
    expect((await beat(anonymous, 30)).status).toBe(200);
    now = at(40, t0);
    // Another account's session, or another episode: no view.
    expect((await beat(signedIn, 30, other)).status).toBe(200);
    expect((await beat(signedIn, 30)).status).toBe(200);
    expect((await beat(anonymous, 30, undefined, catalog.episodes.at(-4)!.id)).status).toBe(200);
    // The real ones: one view each, however long they go on.
    expect((await beat(anonymous, 30)).status).toBe(200);
    expect((await beat(signedIn, 30, owner)).status).toBe(200);
    now = at(80, t0);
    expect((await beat(anonymous, 30)).status).toBe(200);
    expect((await beat(signedIn, 30, owner)).status).toBe(200);
    clock.now = realNow;
    await waitFor(async () => (await views()) >= before + 2, 'the two real views', 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // anything forged would have landed by now
    expect(await views()).toBe(before + 2);
  }, 60_000);

  it('analytics routes have per-account and per-IP budgets well above a player (2-6 a minute)', () => {
    const analytics = routes.filter((r) => r.path.startsWith('/analytics/'));
    expect(analytics.length).toBeGreaterThanOrEqual(11);
    for (const row of analytics) {
      const rules = rateLimitsOf(row);
      expect(rules.map((r) => r.by).sort(), routeKey(row)).toEqual(['account', 'ip']);
      for (const rule of rules) expect(rule.limit / (rule.windowSeconds / 60)).toBeGreaterThanOrEqual(60);
    }
  });

  it('an address spends its per-IP budget anonymously (600 a minute), another address is not affected', async () => {
    const realNow = clock.now;
    const instant = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
    clock.now = () => instant;
    onTestFinished(() => {
      clock.now = realNow;
    });
    const from = { 'x-forwarded-for': address() };
    const send = (headers = from) => api.post('/analytics/video/quality', { headers, body: {} });
    const within = await inParallel(
      Array.from({ length: 600 }),
      REQUESTS_AT_ONCE,
      async () => (await send()).status,
    );
    expect(within.filter((status) => status !== 422)).toEqual([]);
    const over = await send();
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit-policy')).toBe('600;w=60');
    expect((await send({ 'x-forwarded-for': address() })).status).toBe(422);
  }, 120_000);
});

describe('rate limits on every rate-limited route', () => {
  const limited = routes.filter((r) => r.rateLimit);

  it('answer 429 reason rate_limit with Retry-After and RateLimit headers once a client spends its budget', async () => {
    // A fixed instant: the budget is a fixed window, and a real clock crossing a window
    // boundary mid-test would reset the count.
    const realNow = clock.now;
    const instant = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_000);
    clock.now = () => instant;
    onTestFinished(() => {
      clock.now = realNow;
    });
    // Routes side by side (each has an address and an account of its own), and each budget spent
    // REQUESTS_AT_ONCE requests at a time: the counter is one atomic ADD per request, so exactly
    // `limit` of them fit however they interleave (a counter that lost updates under concurrency
    // would let the request after the budget through, and fail this test).
    await inParallel(limited, ROUTES_AT_ONCE, async (row) => {
      const headers = { 'x-forwarded-for': address() };
      const token = row.auth === 'none' ? undefined : await viewer();
      // The rule this client meets first: per account when it sends a token and the row has one.
      const rules = rateLimitsOf(row);
      const rule = (token && rules.find((r) => r.by === 'account')) || rules[0]!;
      const send = () =>
        api.request(row.method, concrete(row.path), {
          headers,
          token,
          // An invalid body or query: still counted (the budget is spent before validation).
          body: row.method === 'GET' ? undefined : {},
        });
      const within = await inParallel(
        Array.from({ length: rule.limit }, (_, i) => i),
        REQUESTS_AT_ONCE,
        async () => (await send()).status,
      );
      expect(
        within.filter((s) => s === 429),
        routeKey(row),
      ).toEqual([]);
      const over = await send();
      expect(over.status, routeKey(row)).toBe(429);
      if (row.envelope === 'reactions') {
        expect(over.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
      } else {
        expect(over.body).toMatchObject({ status: 'error', code: 429, reason: 'rate_limit' });
      }
      expect(Number(over.headers.get('retry-after')), routeKey(row)).toBeGreaterThan(0);
      expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(rule.windowSeconds);
      expect(over.headers.get('ratelimit')).toMatch(
        new RegExp(`^limit=${rule.limit}, remaining=0, reset=\\d+$`),
      );
      expect(over.headers.get('ratelimit-policy')).toBe(`${rule.limit};w=${rule.windowSeconds}`);
      // The budget is per client: another client is not affected.
      const fresh = await api.request(row.method, concrete(row.path), {
        headers: { 'x-forwarded-for': address() },
        token: row.auth === 'none' ? undefined : await viewer(),
        body: row.method === 'GET' ? undefined : {},
      });
      expect(fresh.status, routeKey(row)).not.toBe(429);
    });
  }, 180_000); // every rate-limited route's whole budget: 60 s+ one request at a time under load 24

  it('the concurrent-stream 429 says concurrent_streams and carries no rate-limit headers', async () => {
    const token = await viewer();
    const open = () =>
      api.post(`/creators/${live.id}/channel/live/watch`, {
        token,
        body: { channel_id: live.channel, device_type: 'roku' },
      });
    for (let i = 0; i < 3; i++) expect((await open()).status).toBe(200);
    const fourth = await open();
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ status: 'error', code: 429, reason: 'concurrent_streams' });
    expect(fourth.headers.get('retry-after')).toBeNull();
    expect(fourth.headers.get('ratelimit')).toBeNull();
  });
});
