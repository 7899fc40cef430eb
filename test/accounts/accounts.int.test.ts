import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalAccountJobs } from '../../scripts/local/accounts.ts';
import { localAccountJobQueues } from '../../scripts/local/webhooks-outbox.ts';
import { dynamoEndpointConfig } from '../../shared/db/client.ts';
import { tableName } from '../../shared/db/table.ts';
import { generateCatalog } from '../../shared/seed/generate.ts';
import { putPartnerApproval } from '../../shared/webhooks/subscription-repository.ts';
import { recordCustomer } from '../../shared/payments/billing-repository.ts';
import { studioCreator } from '../support/studio.ts';
import { fromNewAddress, type TestApi, testApi } from '../support/api.ts';
import { waitFor } from '../support/wait.ts';
import { chatControl } from '../support/chat-socket.ts';
import { GetRoomCommand } from '@aws-sdk/client-ivschat';

/**
 * Issue 38 items 6 and 7 (docs/accounts.md): an account that touches every entity exports
 * everything, then deletes itself; the purge leaves nothing in the table keyed by or naming it
 * (a Scan here, in the test, with a client of its own: the request paths never Scan) and the
 * analytics rows carry no account id.
 */
process.env.LOCAL_WEBHOOK_CALLBACKS = 'private';

let api: TestApi;
let jobs: Awaited<ReturnType<typeof startLocalAccountJobs>>;
const catalog = () => generateCatalog({ now: api.seededAt, seed: 42 });

beforeAll(async () => {
  api = await testApi();
  // The deletion's 15-minute wait (an access token's lifetime) in 18 s: time for the checks made
  // while the tombstone stands and the purge has not run.
  jobs = await startLocalAccountJobs({ delayScale: 0.02 });
});
afterAll(() => jobs.stop());

interface Account {
  id: string;
  token: string;
  refresh: string;
  email: string;
  handle: string;
}

const signUp = async (): Promise<Account> => {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const email = `leaver.${id}@example.com`;
  const handle = `leaver_${id}`;
  const created = await api.post(
    '/onboarding/account/create',
    fromNewAddress({
      body: {
        email,
        password: 'correct-horse-1',
        creator_name: `Leaver ${id}`,
        handle,
        agreed_to_terms: true,
      },
    }),
  );
  expect(created.status).toBe(201);
  const { auth_token, refresh_token, creator_id } = created.body.data;
  return { id: creator_id, token: auth_token, refresh: refresh_token, email, handle };
};

/** Every item of the table whose key or any attribute names `text` (a full Scan, paged). */
const itemsNaming = async (text: string): Promise<Record<string, unknown>[]> => {
  const client = new DynamoDBClient(dynamoEndpointConfig());
  const found: Record<string, unknown>[] = [];
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    for (const raw of page.Items ?? []) if (JSON.stringify(raw).includes(text)) found.push(unmarshall(raw));
    start = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (start);
  client.destroy();
  return found;
};

/** Every NDJSON line the local analytics sink wrote (scripts/local/aws.ts: ANALYTICS_DIR or .local/analytics). */
const analyticsLines = (): string[] => {
  const dir = process.env.ANALYTICS_DIR ?? resolve(import.meta.dirname, '../../.local/analytics');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.ndjson'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean));
};

describe('account export (POST/GET /me/export)', () => {
  it('answers 404 before any export, 409 while one is pending, and 503 (nothing pending) when the job cannot be queued', async () => {
    const me = await signUp();
    expect((await api.get('/me/export', { token: me.token })).status).toBe(404);
    // Without a consumer the job waits in the queue, as in SQS: the export stays pending.
    localAccountJobQueues.jobs.consume(undefined);
    try {
      const first = await api.post('/me/export', { token: me.token });
      expect(first.status).toBe(202);
      expect(first.body.data).toMatchObject({ status: 'pending', url: null, ready_at: null });
      const second = await api.post('/me/export', { token: me.token });
      expect(second.status).toBe(409);
    } finally {
      jobs = await startLocalAccountJobs({ delayScale: 0.02 });
    }
    const other = await signUp();
    localAccountJobQueues.jobs.failSends = 1;
    const failed = await api.post('/me/export', { token: other.token });
    expect(failed.status).toBe(503);
    // The pending export was dropped with its failed job: none is there, a new request is accepted.
    expect((await api.get('/me/export', { token: other.token })).status).toBe(404);
    expect((await api.post('/me/export', { token: other.token })).status).toBe(202);
  });
});

describe('account deletion (DELETE /me)', () => {
  it('refuses a confirmation that is not the handle or email (422) and needs a token (401)', async () => {
    const me = await signUp();
    expect((await api.delete('/me', { body: { confirm: me.handle } })).status).toBe(401);
    const wrong = await api.delete('/me', { token: me.token, body: { confirm: 'someone_else' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      { field: 'confirm', message: "must be this account's handle or email" },
    ]);
    expect((await api.delete('/me', { token: me.token, body: {} })).status).toBe(422);
    // Nothing happened: the account still signs in.
    const login = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email: me.email, password: 'correct-horse-1' } }),
    );
    expect(login.status).toBe(200);
  });

  it('an account that touched every entity exports it all, then leaves nothing keyed by or naming it', async () => {
    const me = await signUp();
    const other = await signUp();
    const seed = catalog();
    const live = seed.creators.filter((c) => c.live && !c.channel.requires_subscription).at(-3)!;
    const show = seed.shows[5]!;
    const episode = seed.episodes.find((e) => e.duration_seconds > 1200)!;
    const token = me.token;
    // A second sign-in: a second refresh family.
    const login = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email: me.email, password: 'correct-horse-1' } }),
    );
    expect(login.status).toBe(200);
    expect((await api.post(`/creators/${live.id}/follow`, { token })).status).toBeLessThan(300);
    const reaction = { targetType: 'SERIES', targetId: show.id };
    expect((await api.post('/v3/reactions', { token, body: { ...reaction, emoji: '🔥' } })).status).toBe(201);
    const reactionCount = async () =>
      (
        await api.get(`/v3/reactions/summary/SERIES/${show.id}`, { token: other.token })
      ).body.data.summary.find((s: { emoji: string }) => s.emoji === '🔥')?.count ?? 0;
    const countWithMine = await reactionCount();
    expect(
      (
        await api.post('/reports', {
          token,
          body: { target_type: 'show', target_id: show.id, category: 'spam' },
        })
      ).status,
    ).toBe(201);
    const watch = await api.post(`/creators/${live.id}/channel/live/watch`, {
      token,
      body: { channel_id: live.channel.channel_id, device_type: 'web' },
    });
    expect(watch.status).toBe(200);
    const started = await api.post('/analytics/video/session/start', {
      token,
      body: {
        event_id: randomUUID(),
        content_id: episode.id,
        device_type: 'ios',
        client_ts: new Date().toISOString(),
      },
    });
    expect(started.status).toBe(201);
    const sessionId: string = started.body.data.session_id;
    const beat = await api.post('/analytics/video/session/heartbeat', {
      token,
      body: {
        event_id: randomUUID(),
        session_id: sessionId,
        content_id: episode.id,
        device_type: 'ios',
        client_ts: new Date().toISOString(),
        position_seconds: 90,
        playing_seconds: 5,
      },
    });
    expect(beat.status).toBe(200);
    await putPartnerApproval({
      account_id: me.id,
      approved_at: new Date().toISOString(),
      approved_by: 'test',
    });
    const hook = await api.post('/webhooks/subscriptions', {
      token,
      body: {
        type: 'creator.live',
        version: '1',
        condition: { creator_id: live.id },
        callback: `http://127.0.0.1:9/hooks/${me.id}`,
      },
    });
    expect(hook.status).toBe(201);

    // The export: one JSON document behind a URL valid for an hour.
    expect((await api.post('/me/export', { token })).status).toBe(202);
    let ready: Record<string, any> = {};
    await waitFor(
      async () => {
        ready = (await api.get('/me/export', { token })).body.data;
        return ready.status === 'ready';
      },
      'the export to be ready',
      20_000,
    );
    expect(Date.parse(ready.url_expires_at) - Date.now()).toBeGreaterThan(3500 * 1000);
    const download = await fetch(ready.url);
    expect(download.status).toBe(200);
    const document = (await download.json()) as Record<string, any>;
    expect(document).toMatchObject({
      format: 'creator-streaming.account-export',
      account_id: me.id,
      profile: { email: me.email, handle: me.handle },
      follows: [expect.objectContaining({ creator_id: live.id })],
      reactions: [expect.objectContaining({ targetId: show.id, emoji: '🔥' })],
      reports: [expect.objectContaining({ target_id: show.id, category: 'spam' })],
      continue_watching: [expect.objectContaining({ content_id: episode.id, position_seconds: 90 })],
      watch_sessions: [expect.objectContaining({ creator_id: live.id })],
      webhook_subscriptions: [expect.objectContaining({ id: hook.body.data.id, type: 'creator.live' })],
    });
    expect(document.sign_ins).toHaveLength(2);
    expect(JSON.stringify(document)).not.toMatch(/password_hash|token_sha256|whsec_/);
    // A tampered URL is refused, as S3 refuses it.
    const tampered = new URL(ready.url);
    tampered.searchParams.set('X-Amz-Expires', '604800');
    expect((await fetch(tampered)).status).toBe(403);

    // A Stripe customer of the account (its checkout is test/payments' business): the purge deletes
    // it at Stripe (the stand-in answers 404 for an unknown one, which counts as gone) and here.
    await recordCustomer(me.id, `cus_leaver_${randomUUID().slice(0, 8)}`, new Date());

    // The deletion (a step-up route: a token from a sign-in of the last 10 minutes, as this one
    // is): sign-in and refresh stop at once.
    const signedIn = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email: me.email, password: 'correct-horse-1' } }),
    );
    const fresh = signedIn.body.data.auth_token;
    const deleted = await api.delete('/me', { token: fresh, body: { confirm: me.handle.toUpperCase() } });
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.status).toBe('deleting');
    const again = await api.post(
      '/auth/login',
      fromNewAddress({ body: { email: me.email, password: 'correct-horse-1' } }),
    );
    expect(again.status).toBe(401);
    expect(
      (await api.post('/auth/refresh', fromNewAddress({ body: { refresh_token: me.refresh } }))).status,
    ).toBe(401);
    // A repeat (the token is still valid for its 15 minutes) answers the same.
    const repeat = await api.delete('/me', { token: fresh, body: { confirm: me.email } });
    expect(repeat.status).toBe(202);
    expect(repeat.body.data.deleted_at).toBe(deleted.body.data.deleted_at);

    // The purge, then the projector's counter markers: nothing in the table names the account.
    await jobs.drain();
    let left: Record<string, unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      left = await itemsNaming(me.id);
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(left.map((item) => `${item.PK} ${item.SK}`)).toEqual([]);
    expect(jobs.deadLetters()).toEqual([]);
    // The reaction's count went down with it; the export document is gone from the bucket.
    expect(await reactionCount()).toBe(countWithMine - 1);
    expect((await fetch(ready.url)).status).toBe(404);
    // The handle and the email are reserved (30 days), not free.
    const squat = await api.post(
      '/onboarding/account/create',
      fromNewAddress({
        body: {
          email: me.email,
          password: 'correct-horse-1',
          creator_name: 'Squatter',
          handle: me.handle,
          agreed_to_terms: true,
        },
      }),
    );
    expect(squat.status).toBe(409);
    expect(
      (
        await api.get(
          `/onboarding/account/check-email?email=${encodeURIComponent(me.email)}`,
          fromNewAddress(),
        )
      ).body.data,
    ).toMatchObject({ available: false });
    // Analytics: the account's rows were written (its session) and none carries its id.
    const lines = analyticsLines();
    const mine = lines.filter((line) => line.includes(sessionId));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((line) => /"account_id":"ak_[A-Za-z0-9_-]{32}"/.test(line))).toBe(true);
    expect(lines.filter((line) => line.includes(me.id))).toEqual([]);
  }, 240_000);

  it("a creator's deletion deletes their IVS channel and chat room (their catalogue is a known gap: docs/accounts.md)", async () => {
    const creator = await studioCreator(api);
    const made = await api.post('/studio/channel', { token: creator.token });
    expect(made.status).toBe(201);
    const deleted = await api.delete('/me', { token: creator.token, body: { confirm: creator.handle } });
    expect(deleted.status).toBe(202);
    await jobs.drain();
    expect(jobs.deadLetters()).toEqual([]);
    // The channel is gone on IVS.
    const { IvsClient, GetChannelCommand } = await import('@aws-sdk/client-ivs');
    const ivs = new IvsClient({
      endpoint: process.env.IVS_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await expect(ivs.send(new GetChannelCommand({ arn: made.body.data.channel_arn }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    // And its chat room on IVS Chat (the platform's stand-in).
    await expect(
      chatControl().send(new GetRoomCommand({ identifier: made.body.data.chat_room_arn })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  }, 120_000);
});
