import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { SLOT_LEAD_SECONDS } from '../../shared/live/session-repository.ts';
import { heartbeat, startWatching } from '../../shared/live/watch-playback.ts';
import { generateCatalog } from '../../shared/seed/generate.ts';
import { type TestApi, testApi } from '../support/api.ts';

/**
 * Issue 19 (cost): a heartbeat rewrites the account's stream slot only when the session's new
 * expiry would pass the slot's, which runs SLOT_LEAD_SECONDS ahead (docs/cost.md). Sessions still
 * expire 90 s after their last heartbeat; the slot of a lapsed session stays held up to
 * SLOT_LEAD_SECONDS longer, and no more. Fixed instants three days after the seed, one account
 * per test, so other suites' sessions do not meet these.
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
  t0 = api.seededAt.getTime() + 3 * 86_400_000;
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

describe('stream slots run ahead of their sessions', () => {
  it('a heartbeat every 30 s writes the slot (a transaction) every fourth beat, the session alone otherwise', async () => {
    const account = `acc_slot_${randomUUID()}`;
    const sid = await open(account, 0);
    const send = vi.spyOn(db, 'send');
    const transacted: boolean[] = [];
    for (let beat = 1; beat <= 8; beat++) {
      send.mockClear();
      const answer = await heartbeat(live.id, account, sid, at(beat * 30));
      expect(answer).toMatchObject({ session_valid: true, expires_at: at(beat * 30 + 90).toISOString() });
      transacted.push(send.mock.calls.some(([command]) => command instanceof TransactWriteCommand));
    }
    expect(SLOT_LEAD_SECONDS).toBe(90);
    expect(transacted).toEqual([false, false, false, true, false, false, false, true]);
  });

  it('a lapsed session expires 90 s after its last heartbeat; its slot frees SLOT_LEAD_SECONDS later', async () => {
    const account = `acc_slot_${randomUUID()}`;
    const sids = [await open(account, 0), await open(account, 0), await open(account, 0)];
    await heartbeat(live.id, account, sids[0]!, at(30)); // valid until 120 s, its slot until 180 s
    expect(await heartbeat(live.id, account, sids[0]!, at(119))).toMatchObject({ session_valid: true });
    expect(await heartbeat(live.id, account, sids[1]!, at(91))).toMatchObject({
      session_valid: false,
      reason: 'expired',
    });
    // Sessions 2 and 3 lapsed at 90 s; their slots are held until 180 s, then free.
    await expect(open(account, 150)).rejects.toMatchObject({ status: 429 });
    expect(await open(account, 181)).toEqual(expect.any(String));
    expect(await open(account, 181)).toEqual(expect.any(String));
    await expect(open(account, 182)).rejects.toMatchObject({ status: 429 }); // session 1 is still on
  });
});
