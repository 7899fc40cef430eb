import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { routeKey } from '../../shared/routing/route.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Every route with a creator in its path (`/creators/{id}`, `/tv/v3/creators/{id}`) takes the
 * creator's id or handle, resolved the same way (shared/creators/creator-repository.ts
 * `requireCreator`: a handle is a Query on GSI1) under the same grant, through the local platform
 * (each handler with its function's own IAM policy, so a missing grant is the 500 AWS would give).
 */
const creatorRoutes = routes.filter((r) => /\/creators\/\{id\}/.test(r.path));

interface Context {
  token: string;
  channel: string;
  session: () => string;
}
/** What each route needs besides the creator, in the order a viewer would call them. */
const requests: Record<string, (c: Context) => { query?: string; body?: unknown }> = {
  'GET /creators/{id}': () => ({}),
  'GET /tv/v3/creators/{id}': () => ({}),
  'GET /tv/v3/creators/{id}/series': () => ({}),
  'GET /creators/{id}/channel/live': () => ({}),
  'GET /creators/{id}/channel/live/viewers': () => ({}),
  'GET /creators/{id}/channel/live/metadata': () => ({}),
  'GET /creators/{id}/channel/ondemand': () => ({}),
  'GET /creators/{id}/channel/schedule': () => ({}),
  'GET /creators/{id}/channel/schedule/current': () => ({}),
  'GET /creators/{id}/channel/schedule/upcoming': () => ({}),
  'GET /creators/{id}/channel/live/epg': () => ({}),
  'GET /creators/{id}/channel/live/epg/current': () => ({}),
  'GET /creators/{id}/channel/live/epg/next': () => ({}),
  'POST /creators/{id}/follow': () => ({}),
  'DELETE /creators/{id}/follow': () => ({}),
  'POST /creators/{id}/subscription': () => ({}),
  'DELETE /creators/{id}/subscription': () => ({}),
  'POST /creators/{id}/channel/live/watch': (c) => ({ body: { channel_id: c.channel, device_type: 'web' } }),
  'GET /creators/{id}/channel/live/stream': () => ({}),
  'GET /creators/{id}/channel/live/qualities': (c) => ({ query: `session_id=${c.session()}` }),
  'GET /creators/{id}/channel/live/heartbeat': (c) => ({ query: `session_id=${c.session()}` }),
  'PATCH /creators/{id}/channel/live/watch': (c) => ({ body: { session_id: c.session(), quality: '480p' } }),
  'DELETE /creators/{id}/channel/live/watch': (c) => ({ query: `session_id=${c.session()}` }),
  'POST /creators/{id}/channel/live/reactions': () => ({ body: { emoji: '🔥' } }),
  'GET /creators/{id}/channel/live/realtime': () => ({}),
  'POST /creators/{id}/channel/chat/token': () => ({}),
};

let api: TestApi;
let live: { id: string; slug: string; channel: string };

beforeAll(async () => {
  api = await testApi();
  const catalog = generateCatalog({ now: api.seededAt, seed: 42 });
  const creator = catalog.creators.find((c) => c.live && !c.channel.requires_subscription)!;
  live = { id: creator.id, slug: creator.slug, channel: creator.channel.channel_id };
});

const call = (method: string, path: string, token: string, r: { query?: string; body?: unknown }) =>
  api.request(method, `${path}${r.query ? `?${r.query}` : ''}`, {
    token,
    ...(r.body === undefined ? {} : { body: r.body }),
  });

describe('a creator in the path, by id or handle', () => {
  it('lists a request for every such route (a new one is added here)', () => {
    expect(creatorRoutes.map(routeKey).sort()).toEqual(Object.keys(requests).sort());
  });

  it('answers every route by handle as by id: the grant covers the handle lookup', async () => {
    const token = (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;
    let sessionId: string | undefined;
    const context: Context = {
      token,
      channel: live.channel,
      session: () => sessionId ?? 'no session yet',
    };
    const failures: string[] = [];
    for (const [key, make] of Object.entries(requests)) {
      const [method, pattern] = key.split(' ') as [string, string];
      const byHandle = await call(method, pattern.replace('{id}', live.slug), token, make(context));
      if (byHandle.status >= 300)
        failures.push(`${key}: ${byHandle.status} ${JSON.stringify(byHandle.body)}`);
      if (key === 'POST /creators/{id}/channel/live/watch') sessionId = byHandle.body.data.session.session_id;
    }
    expect(failures).toEqual([]);
  });

  it('answers 404 for an unknown handle on every route, never a 500', async () => {
    const token = (await issueAccessToken(`acc_${randomUUID()}`, new Date())).token;
    const context: Context = { token, channel: live.channel, session: () => randomUUID() };
    const answers: string[] = [];
    for (const [key, make] of Object.entries(requests)) {
      const [method, pattern] = key.split(' ') as [string, string];
      const response = await call(method, pattern.replace('{id}', 'nobody_here'), token, make(context));
      answers.push(`${key}: ${response.status}`);
    }
    expect(answers).toEqual(Object.keys(requests).map((key) => `${key}: 404`));
  });
});
