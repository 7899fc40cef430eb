import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isFinished } from '../../shared/analytics/continue-watching.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

let api: TestApi;
let token: string;
let episodes: Array<{ id: string; duration_seconds: number }>;
beforeAll(async () => {
  api = await testApi();
  token = (await issueAccessToken(`acc_cw_${randomUUID()}`, new Date())).token;
  episodes = generateCatalog({ now: api.seededAt, seed: 42 })
    .episodes.filter((e) => e.duration_seconds > 1200)
    .slice(0, 3);
});

const beat = (content_id: string, position_seconds: number, auth = token) =>
  api.post('/analytics/video/session/heartbeat', {
    token: auth,
    body: {
      event_id: randomUUID(),
      session_id: randomUUID(),
      content_id,
      device_type: 'ios',
      client_ts: new Date().toISOString(),
      position_seconds,
      playing_seconds: 30,
    },
  });

describe('continue watching', () => {
  it('lists the latest playhead per episode, most recent first, and drops finished episodes', async () => {
    const [a, b, c] = episodes as [(typeof episodes)[0], (typeof episodes)[0], (typeof episodes)[0]];
    expect((await beat(a.id, 60)).status).toBe(200);
    await beat(b.id, 300);
    await beat(a.id, 120);
    await beat(c.id, 200);
    await beat(c.id, c.duration_seconds - 60); // inside the last 5 minutes: finished
    const list = await api.get('/me/continue-watching', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((i: { content_id: string }) => i.content_id)).toEqual([a.id, b.id]);
    expect(list.body.data.items[0]).toMatchObject({
      position_seconds: 120,
      duration_seconds: a.duration_seconds,
      progress_percent: Math.floor((120 / a.duration_seconds) * 100),
    });
    expect((await api.get('/me/continue-watching')).status).toBe(401);
  });

  it('adds a Continue Watching section to /home for signed-in viewers only', async () => {
    const anonymous = (await api.get('/home')).body.data;
    const signedIn = (await api.get('/home', { token })).body.data;
    expect(anonymous.some((s: { type: string }) => s.type === 'continue_watching')).toBe(false);
    expect(signedIn[1]).toMatchObject({
      type: 'continue_watching',
      position: 2,
      path: '/me/continue-watching',
    });
    expect(signedIn.map((s: { position: number }) => s.position)).toEqual(
      signedIn.map((_: unknown, i: number) => i + 1),
    );
  });

  it('treats past 90% or the last 5 minutes as finished', () => {
    expect(isFinished(900, 1000)).toBe(true);
    expect(isFinished(1400, 1800)).toBe(false);
    expect(isFinished(1500, 1800)).toBe(true);
  });
});
