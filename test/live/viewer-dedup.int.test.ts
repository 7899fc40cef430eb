import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { leaseUntil, publishedViewers, stopWatching } from '../../shared/watch/watch-sessions.ts';
import { requireCreator } from '../../shared/creators/creator-repository.ts';
import { heartbeat, startWatching } from '../../shared/watch/watch-playback.ts';
import { BUCKET_SECONDS, bucketOf, channelAudience } from '../../shared/audience/viewer-counter.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Issue 14 item 11, audience inflation (medium): one watch session sending 21 heartbeats inside
 * one 30 s window showed 21 viewers and raised the stored peaks. A session counts once per bucket
 * (3 minutes since issue 19: the first heartbeat of a bucket claims it and renews the lease).
 * The watch-session functions run against DynamoDB Local at fixed instants two days after the
 * seed, so the channel's buckets and that day's peak hold this file's sessions only, on a
 * channel no other suite watches.
 */
let live: { id: string; channel: string };
let bucketStart: number;
beforeAll(async () => {
  const api: TestApi = await testApi(); // seeds and serves the catalogue
  const open = generateCatalog({ now: api.seededAt, seed: 42 }).creators.filter(
    (c) => c.live && !c.channel.requires_subscription,
  );
  const creator = open[Math.floor(open.length / 2)]!;
  live = { id: creator.id, channel: creator.channel.channel_id };
  const later = api.seededAt.getTime() + 2 * 86_400_000;
  bucketStart = later - (later % (BUCKET_SECONDS * 1000));
});
afterEach(() => vi.restoreAllMocks());

/** `ms` after the start of the first test bucket. */
const at = (ms: number) => new Date(bucketStart + ms);
const open = async (accountId: string, ms: number, device_type: 'web' | 'ios' = 'web') =>
  (
    await startWatching(
      live.id,
      accountId,
      { channel_id: live.channel, device_type, quality: 'auto', timezone: 'UTC' },
      at(ms),
    )
  ).session.session_id;
/**
 * The channel's audience as a fresh read shows it, 6 s after `ms` (past the 5 s container cache,
 * same bucket): viewers now and that day's stored peak.
 */
const audience = async (ms: number) => {
  const { current, peaks } = await channelAudience(live.channel, at(ms + 6_000));
  return { watching_now: current.total, by_device: current.byDevice, peak_today: peaks.today };
};

describe('a watch session counts once per bucket', () => {
  it('21 heartbeats of one session in one bucket: 1 viewer, peak 1; each answered normally', async () => {
    const account = `acc_dedup_${randomUUID()}`;
    const sid = await open(account, 1_000);
    // Bucket b: the open counted the session; 21 sequential heartbeats add nothing.
    for (let i = 0; i < 21; i++) {
      const ms = 2_000 + i * 100;
      expect(await heartbeat(live.id, account, sid, at(ms))).toMatchObject({
        session_valid: true,
        expires_at: leaseUntil(bucketOf(at(ms))), // the open's lease: these beats write nothing
        stream: { token: expect.any(String) },
        // Heartbeats answer the published count (shared/watch/watch-sessions.ts publishedViewers), never
        // the counters: no heartbeat can inflate it; the counters are checked below.
        viewers: publishedViewers(await requireCreator(live.id)),
      });
    }
    expect(await audience(5_000)).toEqual({
      watching_now: 1,
      peak_today: 1,
      by_device: { web: 1, ios: 0, android: 0, roku: 0, firetv: 0, appletv: 0 },
    });

    // Bucket b+1: 21 parallel heartbeats race to claim the bucket; exactly one counts.
    const next = BUCKET_SECONDS * 1000 + 1_000;
    const parallel = await Promise.all(
      Array.from({ length: 21 }, () => heartbeat(live.id, account, sid, at(next))),
    );
    expect(parallel.map((r) => r.session_valid)).toEqual(Array(21).fill(true));
    expect(await audience(next)).toMatchObject({ watching_now: 1, peak_today: 1 });
  });

  it('only the first heartbeat of a bucket writes: the session (claim and lease), then the counter', async () => {
    const account = `acc_dedup_${randomUUID()}`;
    const first = 10 * BUCKET_SECONDS * 1000;
    const sid = await open(account, first + 1_000, 'ios');
    const writesOf = async (ms: number) => {
      const send = vi.spyOn(db, 'send');
      expect((await heartbeat(live.id, account, sid, at(ms))).session_valid).toBe(true);
      const writes = send.mock.calls
        .map(([command]) => command.constructor.name)
        .filter((name) => /Transact|Update|Put/.test(name));
      send.mockRestore();
      return writes;
    };
    // Same bucket as the open (which counted it and set its lease): nothing written.
    expect(await writesOf(first + 2_000)).toEqual([]);
    // Next bucket: one session write (the claim and the new lease), then the counter.
    expect(await writesOf(first + BUCKET_SECONDS * 1000 + 2_000)).toEqual(['UpdateCommand', 'UpdateCommand']);
    // And again the same bucket: nothing.
    expect(await writesOf(first + BUCKET_SECONDS * 1000 + 3_000)).toEqual([]);
    expect(await audience(first + BUCKET_SECONDS * 1000 + 3_000)).toMatchObject({
      watching_now: 1,
      by_device: { ios: 1 },
    });
  });

  it('an ended session is still answered as ended, not counted', async () => {
    const account = `acc_dedup_${randomUUID()}`;
    const first = 20 * BUCKET_SECONDS * 1000;
    const sid = await open(account, first + 1_000);
    await stopWatching(live.id, account, sid, at(first + 2_000));
    const later = first + BUCKET_SECONDS * 1000 + 1_000;
    expect(await heartbeat(live.id, account, sid, at(later))).toMatchObject({
      session_valid: false,
      reason: 'ended',
    });
    expect(await audience(later)).toMatchObject({ watching_now: 1 }); // the previous bucket's open
    expect((await channelAudience(live.channel, at(later + BUCKET_SECONDS * 1000))).current.total).toBe(0);
  });
});
