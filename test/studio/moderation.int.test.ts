import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ListStreamKeysCommand } from '@aws-sdk/client-ivs';
import { GetCommand } from '../../shared/db/document.ts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { creatorKey } from '../../shared/creators/creator-repository.ts';
import { db } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { ivsClient } from '../../shared/ivs/client.ts';
import { NoChannelError, stopStreamForModeration } from '../../shared/studio/moderation.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { broadcast, type StudioCreator, studioCreator } from '../support/studio.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The operator's moderation stop (shared/studio/moderation.ts, `npm run operator -- stop-stream`)
 * against the local platform's IVS stand-in: a channel provisioned through the studio, live through
 * the broadcaster, stopped; the stream ends through IVS's events, the old key is gone, a new one
 * is there for the creator, and the moderation is on record.
 */
const ROOT = resolve(import.meta.dirname, '../..');
let api: TestApi;
beforeAll(async () => {
  api = await testApi();
});
afterEach(() => vi.restoreAllMocks());

const studioChannel = async (me: StudioCreator) =>
  (await api.get('/studio/channel', { token: me.token })).body.data;

const streamKeyArns = async (channelArn: string) =>
  ((await ivsClient().send(new ListStreamKeysCommand({ channelArn }))).streamKeys ?? []).map((k) => k.arn);

/** A creator with a channel (POST /studio/channel), live through the broadcaster. */
const liveCreator = async () => {
  const me = await studioCreator(api, 'gaming');
  const made = await api.post('/studio/channel', { token: me.token });
  expect(made.status).toBe(201);
  await broadcast('start', me.creatorId);
  await waitFor(async () => (await studioChannel(me)).is_live === true, 'the channel live');
  const channel = await studioChannel(me);
  return {
    me,
    channelArn: channel.channel_arn as string,
    oldKey: channel.stream_key as string,
    streamId: channel.stream.stream_id as string,
  };
};

const stored = async (creatorId: string) =>
  (
    await db.send(
      new GetCommand({ TableName: tableName(), Key: creatorKey(creatorId), ConsistentRead: true }),
    )
  ).Item!;

describe('the moderation stop (npm run operator -- stop-stream)', () => {
  it('deletes the key, then stops the stream, makes a new key and records who, why and when', async () => {
    const { me, channelArn, oldKey, streamId } = await liveCreator();
    const oldKeyArns = await streamKeyArns(channelArn);
    expect(oldKeyArns).toHaveLength(1);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        // On the run's clock (TEST_NOW), as the platform is: the record's time is checked below.
        '--import',
        './test/support/shifted-child.ts',
        'scripts/operator.ts',
        'stop-stream',
        me.creatorId,
        'spam',
        'in',
        'chat',
        '--by',
        'ops-alice',
      ],
      { cwd: ROOT, env: { ...process.env, TABLE_NAME: tableName() } },
    );
    expect(stdout).toContain(`stream ${streamId} stopped`);

    // The stream ended the usual way: IVS's Stream End, the reducer, the lists.
    await waitFor(async () => (await studioChannel(me)).is_live === false, 'the channel offline');
    const after = await studioChannel(me);
    expect(after).toMatchObject({ is_live: false, stream: null, stream_health: 'offline' });
    expect((await api.get(`/creators/${me.creatorId}/channel/live`)).body.data.is_live).toBe(false);
    // The old key is gone; the creator has a new one, from the studio.
    const keyArns = await streamKeyArns(channelArn);
    expect(keyArns).toHaveLength(1);
    expect(keyArns).not.toContain(oldKeyArns[0]);
    expect(after.stream_key).toMatch(/^sk_/);
    expect(after.stream_key).not.toBe(oldKey);
    const item = await stored(me.creatorId);
    expect(item.moderation).toEqual({
      action: 'stop-stream',
      by: 'ops-alice',
      reason: 'spam in chat',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      stream_id: streamId,
    });
    expect(Date.now() - Date.parse(item.moderation.at)).toBeLessThan(60_000);

    // With the new key, the creator can go live again.
    await broadcast('start', me.creatorId);
    await waitFor(async () => (await studioChannel(me)).is_live === true, 'the channel live again');
    await broadcast('stop', me.creatorId);
  });

  it('calls IVS in the safe order: the keys deleted before StopStream, the new key after', async () => {
    const { me, streamId } = await liveCreator();
    const send = vi.spyOn(ivsClient(), 'send');
    const now = new Date();
    const result = await stopStreamForModeration(me.creatorId, { by: 'ops-bob', reason: 'test', now });
    const calls = send.mock.calls.map(([command]) => command.constructor.name.replace(/Command$/, ''));
    expect(calls).toEqual([
      'GetStream',
      'ListStreamKeys',
      'DeleteStreamKey',
      'StopStream',
      'CreateStreamKey',
    ]);
    expect(result).toMatchObject({ stoppedStreamId: streamId, deletedKeys: [expect.any(String)] });
    expect(result.moderation).toEqual({
      action: 'stop-stream',
      by: 'ops-bob',
      reason: 'test',
      at: now.toISOString(),
      stream_id: streamId,
    });
    await waitFor(async () => (await studioChannel(me)).is_live === false, 'the channel offline');

    // Again, on a channel that is no longer live: the keys are replaced, nothing to stop.
    const again = await stopStreamForModeration(me.creatorId, { by: 'ops-bob', reason: 'again', now });
    expect(again).toMatchObject({ stoppedStreamId: null, moderation: { stream_id: null } });
    expect(await streamKeyArns(again.channelArn)).toEqual([again.newKeyArn]);
  });

  it('refuses a creator without a channel, and an unknown creator (exit 1)', async () => {
    const me = await studioCreator(api, 'gaming');
    await expect(
      stopStreamForModeration(me.creatorId, { by: 'ops', reason: 'x', now: new Date() }),
    ).rejects.toBeInstanceOf(NoChannelError);
    expect((await stored(me.creatorId)).moderation).toBeUndefined();
    const failed = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/operator.ts', 'stop-stream', 'acc_nobody_here'],
      { cwd: ROOT, env: { ...process.env, TABLE_NAME: tableName() } },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('no creator has the id') });
  });
});
