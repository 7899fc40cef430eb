import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { projectRecord } from '../../shared/projection/projector.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { onboardCreator, subscribePaid } from '../support/payments.ts';
import { entitlement } from '../support/entitlements.ts';
import { entitlementItem } from '../../shared/entitlements/entitlement-repository.ts';
import { studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';
import { startSessionsAgo } from '../support/analytics.ts';

let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});

const viewer = async () => (await issueAccessToken(`acc_count_${randomUUID()}`, new Date())).token;

const metrics = async (creatorId: string) => {
  const res = await api.get(`/creators/${creatorId}`);
  return res.body.data.find((b: { type: string }) => b.type === 'user').audience_metrics as {
    subscribers: number;
    followers: number;
    views: number;
  };
};
const settlesAt = (what: string, read: () => Promise<number>, expected: number) =>
  waitFor(async () => (await read()) === expected, `${what} to reach ${expected}`).catch(async (error) => {
    throw new Error(`${(error as Error).message} (it is ${await read()})`);
  });

describe('counters that move (exactly, under concurrency and repeats)', () => {
  it('subscribers: 8 parallel paid subscriptions count 8, cancels (each sent twice) take one each', async () => {
    const creator = await studioCreator(api, 'sports');
    await onboardCreator(api, creator.token, creator.creatorId);
    const tokens = await Promise.all(Array.from({ length: 8 }, viewer));
    const path = `/creators/${creator.creatorId}/subscription`;
    // Eight checkouts at once queue ~40 webhook deliveries on one endpoint: this counts, it does not time.
    await Promise.all(tokens.map((token) => subscribePaid(api, token, creator.creatorId, 20_000)));
    await settlesAt('subscribers', async () => (await metrics(creator.creatorId)).subscribers, 8);
    await Promise.all(
      tokens.slice(0, 3).flatMap((token) => [api.delete(path, { token }), api.delete(path, { token })]),
    );
    await settlesAt('subscribers', async () => (await metrics(creator.creatorId)).subscribers, 5);
  });

  it('followers: follows count once each, unfollows take one', async () => {
    const creator = await studioCreator(api, 'gaming');
    const tokens = await Promise.all(Array.from({ length: 10 }, viewer));
    const path = `/creators/${creator.creatorId}/follow`;
    await Promise.all([...tokens, ...tokens].map((token) => api.post(path, { token })));
    await settlesAt('followers', async () => (await metrics(creator.creatorId)).followers, 10);
    await Promise.all(tokens.slice(0, 3).map((token) => api.delete(path, { token })));
    await settlesAt('followers', async () => (await metrics(creator.creatorId)).followers, 7);
  });

  it('views: once per analytics session that played 30 s, on the episode, its show and its creator', async () => {
    const episode = generateCatalog({ now: api.seededAt, seed: 42 }).episodes.at(-1)!;
    const show = async () => (await api.get(`/shows/${episode.show_id}`)).body.data;
    const episodeViews = async () => {
      const detail = await show();
      return detail.episodes.find((e: { episode_id: string }) => e.episode_id === episode.id).views as number;
    };
    const [views0, total0, creator0] = [
      await episodeViews(),
      (await show()).total_views as number,
      (await metrics(episode.creator_id)).views,
    ];
    const beat = (session: string, playing: number) =>
      api.post('/analytics/video/session/heartbeat', {
        body: {
          event_id: randomUUID(),
          session_id: session,
          content_id: episode.id,
          device_type: 'web',
          client_ts: new Date().toISOString(),
          position_seconds: 100,
          playing_seconds: playing,
        },
      });
    // 10 sessions reach 30 s over two heartbeats (sent in parallel), then keep playing: 10 views.
    // (Sessions started by session/start two minutes ago: they may report that much playing time.)
    const [counted, short] = [
      await startSessionsAgo(api.post, episode.id, 10),
      await startSessionsAgo(api.post, episode.id, 2),
    ];
    await Promise.all(counted.flatMap((s) => [beat(s, 20), beat(s, 15)]));
    await Promise.all(counted.map((s) => beat(s, 30)));
    // Two sessions that never reach 30 s of playing time: no view.
    await Promise.all([beat(short[0]!, 29), beat(short[1]!, 10)]);
    await settlesAt('episode views', episodeViews, views0 + 10);
    await settlesAt('show total views', async () => (await show()).total_views, total0 + 10);
    await settlesAt('creator views', async () => (await metrics(episode.creator_id)).views, creator0 + 10);
  });

  it('a repeated stream record moves a counter once (the projector itself, twice on one record)', async () => {
    const creator = await studioCreator(api, 'art_design');
    const item = entitlementItem(
      entitlement({ account_id: `acc_replay_${randomUUID()}`, creator_id: creator.creatorId }),
    );
    const record = {
      eventName: 'INSERT',
      // As the stream sends it: a sequence number (it names the change's events and payment facts).
      dynamodb: { NewImage: marshall(item), SequenceNumber: '100000000000000000001' },
    } as unknown as DynamoDBRecord;
    await projectRecord(record, new Date());
    await projectRecord(record, new Date());
    expect((await metrics(creator.creatorId)).subscribers).toBe(1);
  });
});
