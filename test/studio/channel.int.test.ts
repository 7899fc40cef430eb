import { GetChannelCommand, IvsClient } from '@aws-sdk/client-ivs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../support/api.ts';
import { broadcast, signUp, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const liveIds = async (): Promise<string[]> => {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/creators/live?page=${page}&limit=50`);
    ids.push(...res.body.data.creators.map((c: { id: string }) => c.id));
    if (page >= res.body.meta_data.total_pages) return ids;
  }
};

describe('the studio channel on IVS', () => {
  it('creates the channel once (201, then 200), shows ingest and key to its owner only, rotates the key', async () => {
    const me = await studioCreator(api, 'gaming');
    expect((await api.get('/studio/channel', { token: me.token })).status).toBe(404);

    const made = await api.post('/studio/channel', { token: me.token });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const channel = made.body.data;
    expect(channel).toMatchObject({
      channel_arn: expect.stringMatching(/^arn:aws:ivs:[a-z0-9-]+:\d{12}:channel\/\w+$/),
      ingest_url: `rtmps://${channel.ingest_endpoint}:443/app/`,
      stream_key: expect.stringMatching(/^sk_/),
      latency_mode: 'low',
      is_live: false,
      stream: null,
      stream_health: 'offline',
    });
    // Tagged with its creator and the stage: how the dev stack's teardown finds it (infra/runtime-cleanup.ts).
    const ivs = new IvsClient({
      endpoint: process.env.IVS_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const { channel: inIvs } = await ivs.send(new GetChannelCommand({ arn: channel.channel_arn }));
    expect(inIvs?.tags).toEqual({ creator_id: me.creatorId, stage: 'local' });

    const again = await api.post('/studio/channel', { token: me.token });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(channel);
    const read = await api.get('/studio/channel', { token: me.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('no-store');
    expect(read.body.data).toEqual(channel);

    const rotated = await api.post('/studio/channel/stream-key/rotate', { token: me.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.stream_key).toMatch(/^sk_/);
    expect(rotated.body.data.stream_key).not.toBe(channel.stream_key);
    expect((await api.get('/studio/channel', { token: me.token })).body.data.stream_key).toBe(
      rotated.body.data.stream_key,
    );

    // Another creator sees only their own channel (none yet), never this one.
    const other = await studioCreator(api, 'gaming');
    expect((await api.get('/studio/channel', { token: other.token })).status).toBe(404);
    expect((await api.post('/studio/channel/stream-key/rotate', { token: other.token })).status).toBe(404);
  });

  it('makes exactly one channel of concurrent creates (the losers delete theirs and answer the winner)', async () => {
    const me = await studioCreator(api, 'gaming');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => api.post('/studio/channel', { token: me.token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.channel_arn)).size).toBe(1);
  });

  it('concurrent key rotations (a double click) answer 200 or 409, never a 5xx, and leave the channel one working key (was 500 and 503)', async () => {
    const me = await studioCreator(api, 'gaming');
    expect((await api.post('/studio/channel', { token: me.token })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => api.post('/studio/channel/stream-key/rotate', { token: me.token })),
    );
    for (const r of results) {
      expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      expect(r.body.status).toBe(r.status === 200 ? 'success' : 'error');
    }
    expect(results.some((r) => r.status === 200)).toBe(true);
    const now = await api.get('/studio/channel', { token: me.token });
    expect(now.body.data.stream_key).toMatch(/^sk_/);
    expect(results.map((r) => r.body.data?.stream_key)).toContain(now.body.data.stream_key);
    // Rotating again afterwards works as ever.
    expect((await api.post('/studio/channel/stream-key/rotate', { token: me.token })).status).toBe(200);
  });

  it('answers 401 without a token and 403 for an account that is no creator', async () => {
    expect((await api.post('/studio/channel')).status).toBe(401);
    // An account that has not finished onboarding (no creator yet). A token of an account that
    // does not exist (purged) answers 404 `Account not found` first (accounts.int.test.ts).
    const { res } = await signUp(api, 'nocreator');
    expect(res.status).toBe(201);
    const token: string = res.body.data.auth_token;
    for (const [method, path] of [
      ['POST', '/studio/channel'],
      ['GET', '/studio/channel'],
      ['POST', '/studio/channel/stream-key/rotate'],
    ] as const) {
      expect((await api.request(method, path, { token })).status, `${method} ${path}`).toBe(403);
    }
  });

  it('goes live from IVS events (the live list, the channel, the studio) and offline again', async () => {
    const me = await studioCreator(api, 'gaming');
    expect((await api.post('/studio/channel', { token: me.token })).status).toBe(201);

    await broadcast('start', me.creatorId);
    await waitFor(async () => (await liveIds()).includes(me.creatorId), 'the creator in /creators/live');
    const live = (await api.get('/studio/channel', { token: me.token })).body.data;
    expect(live).toMatchObject({ is_live: true, stream_health: 'healthy' });
    expect(live.stream.stream_id).toMatch(/^st-/);
    const status = await api.get(`/creators/${me.creatorId}/channel/live`);
    expect(status.body.data.is_live).toBe(true);

    await broadcast('stop', me.creatorId);
    await waitFor(async () => !(await liveIds()).includes(me.creatorId), 'the creator out of /creators/live');
    expect((await api.get('/studio/channel', { token: me.token })).body.data).toMatchObject({
      is_live: false,
      stream: null,
      stream_health: 'offline',
    });
  });
});
