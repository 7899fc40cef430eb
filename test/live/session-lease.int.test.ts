import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '../../shared/db/document.ts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { leaseUntil } from '../../shared/watch/watch-sessions.ts';
import { BUCKET_SECONDS, bucketOf } from '../../shared/audience/viewer-counter.ts';
import { heartbeat, startWatching } from '../../shared/watch/watch-playback.ts';
import { generateCatalog } from '../../scripts/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Issue 19 (cost): a watch session is a lease renewed once per viewer-count bucket. The first
 * heartbeat of a bucket writes (the session's claim and lease, and the viewer counter); the other
 * heartbeats of the bucket write nothing; no heartbeat writes the account's stream slot, which is
 * free as soon as its session has ended or lapsed (docs/cost.md, docs/live.md). Fixed instants
 * three days after the seed, aligned 5 s into a bucket, one account per test, so other suites'
 * sessions do not meet these.
 */
let live: { id: string; channel: string };
let t0: number;
beforeAll(async () => {
  const api: TestApi = await testApi();
  const open = generateCatalog({ now: api.seededAt, seed: 42 }).creators.filter(
    (c) => c.live && !c.channel.requires_subscription,
  );
  const creator = open.at(-1)!;
  live = { id: creator.id, channel: creator.channel.channel_id };
  const bucketMs = BUCKET_SECONDS * 1000;
  t0 = Math.floor((api.seededAt.getTime() + 3 * 86_400_000) / bucketMs) * bucketMs + 5_000;
});
afterEach(() => vi.restoreAllMocks());

const at = (seconds: number) => new Date(t0 + seconds * 1000);
const open = async (accountId: string, seconds: number) =>
  (
    await startWatching(
      live.id,
      accountId,
      { channel_id: live.channel, device_type: 'web', quality: 'auto', timezone: 'UTC' },
      at(seconds),
    )
  ).session.session_id;

describe('watch sessions are leases renewed once per bucket', () => {
  const B = BUCKET_SECONDS;

  it('a heartbeat every 30 s writes on the first beat of each bucket only, and never a slot', async () => {
    expect(B % 30).toBe(0);
    const account = `acc_lease_${randomUUID()}`;
    const sid = await open(account, 0);
    const send = vi.spyOn(db, 'send');
    const wrote: boolean[] = [];
    const beats = (2 * B) / 30 + 1;
    for (let beat = 1; beat <= beats; beat++) {
      send.mockClear();
      const answer = await heartbeat(live.id, account, sid, at(beat * 30));
      expect(answer).toMatchObject({
        session_valid: true,
        expires_at: leaseUntil(bucketOf(at(beat * 30))),
      });
      const writes = send.mock.calls.map(([command]) => command);
      expect(writes.some((command) => command instanceof TransactWriteCommand)).toBe(false);
      wrote.push(writes.some((command) => command instanceof UpdateCommand));
    }
    // 5 s into bucket 0 at the open: the beats at B and 2B seconds are the first of buckets 1 and 2.
    expect(wrote).toEqual(
      Array.from({ length: beats }, (_, i) => (i + 1) * 30 === B || (i + 1) * 30 === 2 * B),
    );
  });

  it('a lapsed session expires 90 s after its last bucket ends, and its slot is free from then on', async () => {
    const account = `acc_lease_${randomUUID()}`;
    const sids = [await open(account, 0), await open(account, 0), await open(account, 0)];
    // Bucket 0 ends at B - 5 s: sessions 2 and 3 lapse 90 s later; session 1, renewed in bucket 1, a bucket later.
    const lapse = B - 5 + 90;
    expect(await heartbeat(live.id, account, sids[0]!, at(B))).toMatchObject({
      session_valid: true,
      expires_at: at(lapse + B).toISOString(),
    });
    await expect(open(account, lapse - 1)).rejects.toMatchObject({ kind: 'too_many_requests' });
    for (const sid of [sids[1]!, sids[2]!])
      expect(await heartbeat(live.id, account, sid, at(lapse))).toMatchObject({
        session_valid: false,
        reason: 'expired',
      });
    expect(await open(account, lapse + 1)).toEqual(expect.any(String));
    expect(await open(account, lapse + 1)).toEqual(expect.any(String));
    await expect(open(account, lapse + 2)).rejects.toMatchObject({ kind: 'too_many_requests' }); // session 1 is still on
    expect(await heartbeat(live.id, account, sids[0]!, at(lapse + B - 1))).toMatchObject({
      session_valid: true,
    });
  });
});
