import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_SOURCE, type PlatformEvent } from '../../shared/events/envelope.ts';
import { issueAccessToken } from '../../shared/identity/access-token.ts';
import {
  putPartnerApproval,
  putSubscription,
  type SubscriptionRecord,
} from '../../shared/webhooks/subscription-repository.ts';
import { type LocalWebhooks, startLocalWebhooks } from '../../scripts/local/webhooks.ts';
import { localWebhookQueues } from '../../scripts/local/webhooks-outbox.ts';
import type { EventBridgeEvent } from '../../scripts/local/event-bus.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/**
 * Webhooks end to end on the local platform: the subscriptions API, the verification challenge,
 * then `creator.live` / `creator.offline` events handed to the fan-out as the EventBridge rule
 * would, delivered over HTTP to a loopback receiver that verifies each one with the
 * `standardwebhooks` reference library. Retry waits are shrunk (delayScale), never skipped.
 */
process.env.LOCAL_WEBHOOK_CALLBACKS = 'private';

const CREATOR = 'acc_demo_creator';
let api: TestApi;
let receiver: Receiver;
let webhooks: LocalWebhooks;
let creatorToken: string;

beforeAll(async () => {
  api = await testApi();
  receiver = await startReceiver();
  webhooks = await startLocalWebhooks({ delayScale: 0.0005 });
  creatorToken = (await issueAccessToken(CREATOR, new Date())).token;
});
afterAll(async () => {
  webhooks?.stop();
  await receiver?.stop();
});

const eventOf = (type: PlatformEvent['type'], creatorId = CREATOR, data: Record<string, unknown> = {}) => {
  const detail: PlatformEvent = {
    id: `evt_${randomUUID()}`,
    type,
    version: '1',
    time: new Date().toISOString(),
    creator_id: creatorId,
    data: { creator_id: creatorId, ...data },
  };
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': type,
    source: EVENT_SOURCE,
    account: '000000000000',
    time: detail.time,
    region: 'local',
    resources: [],
    detail,
  };
};

const subscribe = async (
  path: string,
  type: PlatformEvent['type'],
  token = creatorToken,
  creatorId = CREATOR,
) => {
  const response = await api.post('/webhooks/subscriptions', {
    token,
    body: { type, version: '1', condition: { creator_id: creatorId }, callback: receiver.endpoint(path) },
  });
  if (response.status === 201) receiver.setSecret(path, response.body.data.secret);
  return response;
};

const statusOf = async (id: string, token = creatorToken) =>
  (await api.get(`/webhooks/subscriptions/${id}`, { token })).body.data.status;

const waitForStatus = async (id: string, status: string, token = creatorToken) => {
  for (let i = 0; i < 200; i++) {
    if ((await statusOf(id, token)) === status) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`subscription ${id} never became ${status} (is ${await statusOf(id, token)})`);
};

describe('webhook subscriptions and signed deliveries', () => {
  it('subscribe → verification challenge echoed → creator.live and creator.offline delivered, each verified by standardwebhooks', async () => {
    const path = `/live-${randomUUID()}`;
    const live = await subscribe(path, 'creator.live');
    expect(live.status).toBe(201);
    expect(live.body.data).toMatchObject({
      type: 'creator.live',
      condition: { creator_id: CREATOR },
      status: 'webhook_callback_verification_pending',
    });
    expect(live.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await waitForStatus(live.body.data.id, 'enabled');
    const offlinePath = `/offline-${randomUUID()}`;
    const offline = await subscribe(offlinePath, 'creator.offline');
    await waitForStatus(offline.body.data.id, 'enabled');

    const wentLive = eventOf('creator.live', CREATOR, { title: 'Hello' });
    const wentOffline = eventOf('creator.offline');
    await webhooks.publish(wentLive);
    await webhooks.publish(wentOffline);
    await webhooks.publish(eventOf('creator.live', 'cr_0002')); // another creator: not delivered
    await webhooks.drain();

    expect(receiver.rejected).toEqual([]);
    expect(receiver.delivered(path).map((d) => [d.id, d.type])).toEqual([
      [wentLive.detail.id, 'creator.live'],
    ]);
    expect(receiver.delivered(path)[0]!.body).toEqual({
      type: 'creator.live',
      timestamp: wentLive.detail.time,
      data: wentLive.detail.data,
    });
    expect(receiver.delivered(offlinePath).map((d) => [d.id, d.type])).toEqual([
      [wentOffline.detail.id, 'creator.offline'],
    ]);
  });

  it('forced retries keep the webhook-id: a receiver failing twice gets three attempts of one id, delivered once', async () => {
    const path = `/flaky-${randomUUID()}`;
    receiver.endpoint(path, ({ count }) => (count <= 2 ? { status: 503 } : { status: 200 }));
    const created = await subscribe(path, 'creator.live');
    await waitForStatus(created.body.data.id, 'enabled');
    const event = eventOf('creator.live');
    await webhooks.publish(event);
    await webhooks.drain();
    expect(receiver.attempts(path).map((a) => a.id)).toEqual([
      event.detail.id,
      event.detail.id,
      event.detail.id,
    ]);
    expect(receiver.delivered(path)).toHaveLength(1);
    expect(new Set(receiver.attempts(path).map((a) => JSON.stringify(a.body))).size).toBe(1);
  });

  it('a 410 answer revokes the subscription: authorization_revoked, nothing more delivered', async () => {
    const path = `/gone-${randomUUID()}`;
    receiver.endpoint(path, () => ({ status: 410 }));
    const created = await subscribe(path, 'creator.live');
    await waitForStatus(created.body.data.id, 'enabled');
    await webhooks.publish(eventOf('creator.live'));
    await webhooks.drain();
    expect(await statusOf(created.body.data.id)).toBe('authorization_revoked');
    await webhooks.publish(eventOf('creator.live'));
    await webhooks.drain();
    expect(receiver.attempts(path)).toHaveLength(1);
  });

  it('a callback that never echoes the challenge stays unverified and receives nothing', async () => {
    const created = await api.post('/webhooks/subscriptions', {
      token: creatorToken,
      body: {
        type: 'creator.live',
        version: '1',
        condition: { creator_id: CREATOR },
        callback: `${receiver.url}/nobody`,
      },
    });
    expect(created.status).toBe(201);
    await waitForStatus(created.body.data.id, 'webhook_callback_verification_failed');
  });

  it('a rotation signs with both secrets for 24 h: the old and the new secret each verify', async () => {
    const path = `/rotate-${randomUUID()}`;
    const created = await subscribe(path, 'creator.offline');
    await waitForStatus(created.body.data.id, 'enabled');
    const rotated = await api.post(`/webhooks/subscriptions/${created.body.data.id}/secret/rotate`, {
      token: creatorToken,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
    const event = eventOf('creator.offline');
    await webhooks.publish(event); // the receiver still holds the OLD secret
    await webhooks.drain();
    receiver.setSecret(path, rotated.body.data.secret);
    await webhooks.publish(eventOf('creator.offline'));
    await webhooks.drain();
    expect(receiver.rejected.filter((r) => r.path === path)).toEqual([]);
    expect(receiver.delivered(path).map((d) => d.signatures)).toEqual([2, 2]);
  });

  it('concurrent rotations: exactly one answers 200, the others 409, and its secret is the current one', async () => {
    const path = `/rotate-race-${randomUUID()}`;
    const created = await subscribe(path, 'creator.offline');
    await waitForStatus(created.body.data.id, 'enabled');
    const rotations = await Promise.all(
      Array.from({ length: 4 }, () =>
        api.post(`/webhooks/subscriptions/${created.body.data.id}/secret/rotate`, { token: creatorToken }),
      ),
    );
    expect(rotations.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const refused of rotations.filter((r) => r.status === 409))
      expect(refused.body.message).toBe(
        "The secret was rotated less than 60 seconds ago: that rotation's answer holds the current secret",
      );
    const winner = rotations.find((r) => r.status === 200)!;
    // Signed with the current secret and the previous (the created one): the winner's must verify
    // as the current, since it is not the created one.
    expect(winner.body.data.secret).not.toBe(created.body.data.secret);
    receiver.setSecret(path, winner.body.data.secret);
    await webhooks.publish(eventOf('creator.offline'));
    await webhooks.drain();
    expect(receiver.rejected.filter((r) => r.path === path)).toEqual([]);
    expect(receiver.delivered(path).map((d) => d.signatures)).toEqual([2]);
  });

  it('ownership: another account gets 404 on get, delete and rotate, and does not see it listed', async () => {
    const created = await subscribe(`/own-${randomUUID()}`, 'creator.live');
    const id = created.body.data.id;
    const other = (await issueAccessToken(`acc_other_${randomUUID()}`, new Date())).token;
    expect((await api.get(`/webhooks/subscriptions/${id}`, { token: other })).status).toBe(404);
    expect((await api.delete(`/webhooks/subscriptions/${id}`, { token: other })).status).toBe(404);
    expect((await api.post(`/webhooks/subscriptions/${id}/secret/rotate`, { token: other })).status).toBe(
      404,
    );
    expect((await api.get('/webhooks/subscriptions', { token: other })).body.data).toEqual([]);
    const mine = await api.get('/webhooks/subscriptions?limit=100', { token: creatorToken });
    expect(mine.body.data.map((s: { id: string }) => s.id)).toContain(id);
    expect(JSON.stringify(mine.body.data)).not.toContain('whsec_');
    expect((await api.get(`/webhooks/subscriptions/${id}`, { token: creatorToken })).status).toBe(200);
    // The owner may delete it (one transaction: the subscription, its uniqueness item, the count).
    expect((await api.delete(`/webhooks/subscriptions/${id}`, { token: creatorToken })).status).toBe(204);
    expect((await api.get(`/webhooks/subscriptions/${id}`, { token: creatorToken })).status).toBe(404);
  });

  it('who may subscribe: not to another creator; an approved partner to public types of any creator, not private ones', async () => {
    const stranger = (await issueAccessToken(`acc_stranger_${randomUUID()}`, new Date())).token;
    expect((await subscribe(`/s-${randomUUID()}`, 'creator.live', stranger, 'cr_0001')).status).toBe(403);
    expect((await subscribe(`/s-${randomUUID()}`, 'creator.live', creatorToken, 'cr_0001')).status).toBe(403);
    const partnerId = `acc_partner_${randomUUID()}`;
    await putPartnerApproval({
      account_id: partnerId,
      approved_at: new Date().toISOString(),
      approved_by: 'test',
    });
    const partner = (await issueAccessToken(partnerId, new Date())).token;
    expect((await subscribe(`/p-${randomUUID()}`, 'creator.live', partner, 'cr_0001')).status).toBe(201);
    const privateType = await subscribe(`/p-${randomUUID()}`, 'subscription.created', partner, 'cr_0001');
    expect(privateType.status).toBe(403);
    expect((await subscribe(`/p-${randomUUID()}`, 'subscription.created')).status).toBe(201);
  });

  it('when the verification cannot be queued: 503 with Retry-After, and no subscription is left behind', async () => {
    const callback = `${receiver.url}/outage-${randomUUID()}`;
    // The SDK retries SQS errors 3 times: every attempt fails.
    localWebhookQueues.deliveries.failSends = 3;
    const answer = await api.post('/webhooks/subscriptions', {
      token: creatorToken,
      body: { type: 'creator.offline', version: '1', condition: { creator_id: CREATOR }, callback },
    });
    localWebhookQueues.deliveries.failSends = 0;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    const mine = await api.get('/webhooks/subscriptions?limit=100', { token: creatorToken });
    expect(mine.body.data.map((s: { callback: string }) => s.callback)).not.toContain(callback);
  });

  it('bad input is a 4xx in the envelope: unknown type, wrong version, non-URL callback, duplicates', async () => {
    const body = {
      type: 'creator.live',
      version: '1',
      condition: { creator_id: CREATOR },
      callback: `${receiver.url}/dup`,
    };
    const post = (b: unknown) => api.post('/webhooks/subscriptions', { token: creatorToken, body: b });
    expect((await post({ ...body, type: 'creator.exploded' })).status).toBe(422);
    expect((await post({ ...body, version: '7' })).status).toBe(422);
    const notUrl = await post({ ...body, callback: 'not a url' });
    expect(notUrl.status).toBe(422);
    expect(notUrl.body.errors).toEqual([{ field: 'callback', message: 'callback must be an absolute URL' }]);
    expect((await post({ ...body, callback: 'ftp://example.com/x' })).status).toBe(422);
    expect((await post(body)).status).toBe(201);
    expect((await post(body)).status).toBe(409);
  });
});

describe('the duplicate and per-account limits hold under concurrency (issue 33)', () => {
  it('six identical creates at once: one 201, five 409 (a conditional write, not read-then-write)', async () => {
    const creator = await studioCreator(api, 'gaming');
    const body = {
      type: 'creator.live',
      version: '1',
      condition: { creator_id: creator.creatorId },
      callback: `${receiver.url}/race-${randomUUID()}`,
    };
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => api.post('/webhooks/subscriptions', { token: creator.token, body })),
    );
    expect(statuses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const mine = await api.get('/webhooks/subscriptions', { token: creator.token });
    expect(mine.body.data).toHaveLength(1);
  });

  it('the per-account limit is a condition of the write: 8 concurrent writes under a limit of 3 leave 3', async () => {
    const owner = `acc_limit_${randomUUID()}`;
    const record = (i: number): SubscriptionRecord => ({
      id: `whs_limit_${randomUUID().replace(/-/g, '')}`,
      owner_id: owner,
      type: 'creator.live',
      version: '1',
      creator_id: owner,
      callback: `https://hooks.example.net/${i}`,
      status: 'webhook_callback_verification_pending',
      created_at: new Date().toISOString(),
      status_changed_at: new Date().toISOString(),
      secret_generation: 1,
    });
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => putSubscription(record(i), 3)));
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'limit')).toHaveLength(5);
  });
});

describe('from a broadcast to a verified delivery (the whole local path)', () => {
  it('a creator subscribed to their own creator.live receives it, verified, after the broadcast starts', async () => {
    // A creator with an IVS channel (the studio API), subscribed to their own channel going live.
    const creator = await studioCreator(api, 'gaming');
    expect((await api.post('/studio/channel', { token: creator.token })).status).toBe(201);
    const path = `/e2e-${randomUUID()}`;
    const created = await subscribe(path, 'creator.live', creator.token, creator.creatorId);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await waitForStatus(created.body.data.id, 'enabled', creator.token);

    // The encoder starts (the IVS stand-in's broadcaster, as `npm run broadcast -- start` does):
    // its Stream Start reaches the reducer, the creator item changes, the table stream's second
    // reader publishes creator.live on the platform's bus (the global set-up's process). The
    // bus's rule target here is this process's fan-out: the event is handed over as the rule
    // hands it, then the outbox and the sender deliver it for real over HTTP.
    const started = Date.now();
    const res = await fetch(`${process.env.IVS_ENDPOINT}/_local/broadcast/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: creator.creatorId }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    try {
      let event: EventBridgeEvent | undefined;
      while (!event && Date.now() - started < 10_000) {
        const listed = await fetch(`${process.env.EVENTS_ENDPOINT}/_local/events?detail-type=creator.live`);
        event = ((await listed.json()) as { events: EventBridgeEvent[] }).events.find(
          (e) => e.detail.creator_id === creator.creatorId,
        );
        if (!event) await new Promise((r) => setTimeout(r, 20));
      }
      expect(event, 'creator.live on the platform bus').toBeDefined();
      await webhooks.publish(event as never);
      while (receiver.delivered(path).length === 0 && Date.now() - started < 10_000)
        await new Promise((r) => setTimeout(r, 10));
      const elapsed = Date.now() - started;
      expect(receiver.rejected.filter((r) => r.path === path)).toEqual([]);
      expect(receiver.delivered(path).map((d) => [d.id, d.type])).toEqual([
        [event!.detail.id, 'creator.live'],
      ]);
      expect(receiver.delivered(path)[0]!.body.data).toMatchObject({ creator_id: creator.creatorId });
      // The figure for docs/webhooks.md (the 2 s target is measured, not asserted: no timed tests).
      console.log(`creator.live verified by the receiver ${elapsed} ms after the broadcast started`);
    } finally {
      await fetch(`${process.env.IVS_ENDPOINT}/_local/broadcast/stop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: creator.creatorId }),
      });
    }
  }, 60_000);
});
