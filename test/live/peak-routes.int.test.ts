import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import { BUCKET_SECONDS, bucketOf } from '../../shared/audience/viewer-counter.ts';
import { addViewers, getPeak } from '../../shared/audience/viewer-counter-repository.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Every route that shows a channel's viewers raises the stored peaks when it is the first to see
 * a new high (shared/audience/viewer-counter.ts), so each of them needs the conditional UpdateItem on
 * the peak items besides the BatchGetItem that reads the audience. Each route runs here in its
 * own container state (scripts/local/aws.ts), cold, against a count pushed above the stored peak
 * by another writer: the peak it answers, and the stored one, must be the new high.
 */
let api: TestApi;
let token: string;
let creator: { id: string; channel: string };
beforeAll(async () => {
  api = await testApi();
  token = (await issueAccessToken(`acc_peak_${randomUUID()}`, new Date())).token;
  // The second-to-last open live channel: the watch and abuse suites use others.
  const c = generateCatalog({ now: api.seededAt, seed: 42 })
    .creators.filter((x) => x.live && !x.channel.requires_subscription)
    .at(-2)!;
  creator = { id: c.id, channel: c.channel.channel_id };
  // GET /live/stream answers the playback token of the caller's open watch session (409 without).
  const opened = await api.post(`/creators/${creator.id}/channel/live/watch`, {
    token,
    body: { channel_id: creator.channel, device_type: 'web' },
  });
  expect(opened.status).toBe(200);
});

const storedPeak = () => getPeak(creator.channel, 'all');

/** Another writer adds `n` viewers to the current bucket (one shard, one call). */
const addViewersElsewhere = (n: number) => {
  const bucket = bucketOf(new Date());
  return addViewers(creator.channel, {
    bucket,
    shard: 0,
    device: 'web',
    by: n,
    expiresAt: (bucket + 4) * BUCKET_SECONDS + 86_400,
  });
};

describe('routes that show viewers raise a peak they see first', () => {
  const routes: Array<[string, () => Promise<{ status: number; body: any }>]> = [
    ['GET /live/viewers', () => api.get(`/creators/${creator.id}/channel/live/viewers`)],
    ['GET /live', () => api.get(`/creators/${creator.id}/channel/live`)],
    [
      'GET /live/stream',
      () => api.get(`/creators/${creator.id}/channel/live/stream?quality=480p`, { token }),
    ],
  ];
  for (const [name, call] of routes) {
    it(name, async () => {
      const before = await storedPeak();
      await addViewersElsewhere(before + 1_000);
      const response = await call();
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      // The route itself wrote the new high: nothing else touches this channel's peaks here.
      expect(await storedPeak()).toBeGreaterThanOrEqual(before + 1_000);
    });
  }
});
