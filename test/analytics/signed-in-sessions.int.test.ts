import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * The analytics routes as deployed: each runs locally with its function's own environment and
 * IAM policy (scripts/local/aws.ts). Regression for the production defect where a signed-in
 * heartbeat or session end needed DynamoDB (continue-watching progress) that its function was not
 * granted: AccessDenied, a 500 and a lost event on AWS, while every local test passed.
 */
let api: TestApi;
let token: string;
let episode: { id: string; duration_seconds: number };
beforeAll(async () => {
  api = await testApi();
  token = (await issueAccessToken(`acc_as_${randomUUID()}`, new Date())).token;
  episode = generateCatalog({ now: api.seededAt, seed: 42 }).episodes.find((e) => e.duration_seconds > 1800)!;
});

const base = () => ({ session_id: randomUUID(), device_type: 'web' as const });
const progressOf = async () =>
  (await api.get('/me/continue-watching', { token })).body.data.items.find(
    (i: { content_id: string }) => i.content_id === episode.id,
  );

describe('signed-in on-demand sessions', () => {
  it('a session end saves the playhead, and a finished end clears it', async () => {
    const end = (position_seconds: number) =>
      api.post('/analytics/video/session/end', {
        token,
        body: { ...base(), content_id: episode.id, position_seconds, reason: 'user_exit' },
      });
    expect((await end(300)).status).toBe(200);
    expect(await progressOf()).toMatchObject({ position_seconds: 300 });
    expect((await end(episode.duration_seconds - 30)).status).toBe(200);
    expect(await progressOf()).toBeUndefined();
  });

  it('a heartbeat saves the playhead', async () => {
    const response = await api.post('/analytics/video/session/heartbeat', {
      token,
      body: { ...base(), content_id: episode.id, position_seconds: 420, playing_seconds: 30 },
    });
    expect(response.status).toBe(200);
    expect(await progressOf()).toMatchObject({ position_seconds: 420 });
  });
});

describe('the other sink routes', () => {
  it('accepts an ad batch and a live session end', async () => {
    const ads = await api.post('/analytics/video/ads', {
      body: {
        events: [{ ...base(), content_id: episode.id, type: 'adstart', client_ts: new Date().toISOString() }],
      },
    });
    expect(ads.status).toBe(200);
    const end = await api.post('/analytics/live/session/end', {
      body: { ...base(), channel_id: 'cr_0001', playing_seconds: 30, reason: 'user_exit' },
    });
    expect(end.status).toBe(200);
  });
});
