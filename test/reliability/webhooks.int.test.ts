import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalWebhooks, startLocalWebhooks } from '../../scripts/local/webhooks.ts';
import { EVENT_SOURCE, type PlatformEvent } from '../../shared/events/envelope.ts';
import { requestTimeout } from '../../shared/webhooks/http-post.ts';
import { RETRY } from '../../shared/webhooks/retry.ts';
import { type TestApi, testApi } from '../support/api.ts';
import { studioCreator } from '../support/studio.ts';
import { type Behaviour, type Receiver, startReceiver } from '../webhooks/receiver.ts';

/**
 * Webhook deliveries under receivers that misbehave (docs/reliability.md, "Webhooks"): one that
 * fails 30% of its requests (503), one that hangs on 30% (past the sender's timeout), one that
 * answers 410 after 10 deliveries, and one that is down for good. Each receiver verifies every
 * request with the `standardwebhooks` reference library. Must hold: no event lost (each is
 * delivered, or for the dead receiver in the dead-letter queue), nothing unsigned, duplicates
 * only as repeats of the same webhook-id with the same body. The 3-day retry schedule runs with
 * every wait scaled by DELAY_SCALE (about 8 s in all); the timeout is shortened to 2 s.
 */
process.env.LOCAL_WEBHOOK_CALLBACKS = 'private';
const DELAY_SCALE = 0.00003;
const EVENTS = 60;
const DEAD_EVENTS = 3;
/**
 * A creator of this file's own (made in beforeAll), not the demo creator test/webhooks uses:
 * with two test workers the files may run at once, and every event about a creator fans out
 * to every subscription on it, so each file's receiver would get the other's deliveries; run
 * one after the other, the subscriptions left enabled here would slow the other file's drain()
 * with retries to this file's stopped receiver.
 */
let CREATOR = '';

let api: TestApi;
let receiver: Receiver;
let webhooks: LocalWebhooks;
let token: string;

/** mulberry32: the same "random" failures on every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

beforeAll(async () => {
  api = await testApi();
  receiver = await startReceiver();
  webhooks = await startLocalWebhooks({ delayScale: DELAY_SCALE });
  requestTimeout.ms = 2000;
  ({ creatorId: CREATOR, token } = await studioCreator(api));
});
afterAll(async () => {
  webhooks?.stop();
  await receiver?.stop();
});

const subscribe = async (
  name: string,
  behaviour: Behaviour,
  type: PlatformEvent['type'] = 'creator.live',
) => {
  const path = `/${name}-${randomUUID()}`;
  const created = await api.post('/webhooks/subscriptions', {
    token,
    body: {
      type,
      version: '1',
      condition: { creator_id: CREATOR },
      callback: receiver.endpoint(path, behaviour),
    },
  });
  expect(created.status).toBe(201);
  receiver.setSecret(path, created.body.data.secret);
  for (let i = 0; i < 200; i++) {
    const status = (await api.get(`/webhooks/subscriptions/${created.body.data.id}`, { token })).body.data
      .status;
    if (status === 'enabled') return { path, id: created.body.data.id as string };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${name} never enabled`);
};

const event = (
  type: PlatformEvent['type'] = 'creator.live',
): { detail: PlatformEvent } & Record<string, unknown> => {
  const detail: PlatformEvent = {
    id: `evt_${randomUUID()}`,
    type,
    version: '1',
    time: new Date().toISOString(),
    creator_id: CREATOR,
    data: { creator_id: CREATOR, stream_started_at: new Date().toISOString() },
  };
  return { version: '0', id: randomUUID(), 'detail-type': detail.type, source: EVENT_SOURCE, detail };
};

describe('webhook deliveries under failing receivers', () => {
  it('30% failures, 30% timeouts, 410, a dead receiver: zero lost, zero unsigned, duplicates only with the same webhook-id', {
    timeout: 120_000,
  }, async () => {
    const flakyRandom = prng(7);
    const slowRandom = prng(11);
    const flaky = await subscribe('flaky', () => (flakyRandom() < 0.3 ? { status: 503 } : { status: 200 }));
    const slow = await subscribe('slow', () => (slowRandom() < 0.3 ? { hang: true } : { status: 200 }));
    let goneAfter = 10;
    const gone = await subscribe('gone', () => (goneAfter-- > 0 ? { status: 200 } : { status: 410 }));
    // Down for good, on its own type: each of its events is attempted ~20 times over the (scaled)
    // three days, each long wait in 15-minute hops.
    const dead = await subscribe('dead', () => ({ status: 503 }), 'creator.offline');

    const started = Date.now();
    const published = Array.from({ length: EVENTS }, () => event());
    const toDead = Array.from({ length: DEAD_EVENTS }, () => event('creator.offline'));
    // Sequential, as the bus delivers one event at a time per rule.
    for (const e of [...published, ...toDead]) await webhooks.publish(e);
    await webhooks.drain();
    const seconds = (Date.now() - started) / 1000;

    const ids = new Set(published.map((e) => e.detail.id));
    const deadIds = new Set(toDead.map((e) => e.detail.id));
    const bodies = new Map([...published, ...toDead].map((e) => [e.detail.id, e.detail]));
    const figures: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries({ flaky, slow, gone, dead })) {
      const attempts = receiver.attempts(sub.path);
      const delivered = new Set(receiver.delivered(sub.path).map((d) => d.id));
      // Every request carried one of the published ids, with exactly that event's body.
      for (const a of attempts) {
        expect(ids.has(a.id) || deadIds.has(a.id)).toBe(true);
        const source = bodies.get(a.id)!;
        expect(a.body).toEqual({ type: source.type, timestamp: source.time, data: source.data });
      }
      figures[name] = {
        requests: attempts.length,
        delivered: delivered.size,
        repeats: attempts.length - new Set(attempts.map((a) => a.id)).size,
        answered_2xx_twice: receiver.delivered(sub.path).length - delivered.size,
        status: (await api.get(`/webhooks/subscriptions/${sub.id}`, { token })).body.data.status,
      };
    }
    const deadLetters = webhooks
      .deadLetters()
      .map((body) => JSON.parse(body) as { subscription_id: string; event: PlatformEvent });
    const deadLettered = new Set(
      deadLetters.filter((m) => m.subscription_id === dead.id).map((m) => m.event.id),
    );
    figures.dead_lettered = deadLettered.size;
    figures.unsigned_or_bad_signature = receiver.rejected.length;
    figures.seconds = seconds;
    console.info(`webhook reliability: ${EVENTS} + ${DEAD_EVENTS} events, ${JSON.stringify(figures)}`);

    expect(receiver.rejected).toEqual([]);
    // 30% failures and 30% timeouts: every event delivered.
    expect(new Set(receiver.delivered(flaky.path).map((d) => d.id))).toEqual(ids);
    expect(new Set(receiver.delivered(slow.path).map((d) => d.id))).toEqual(ids);
    expect(receiver.attempts(flaky.path).length).toBeGreaterThan(EVENTS);
    expect(receiver.attempts(slow.path).length).toBeGreaterThan(EVENTS);
    // 410: revoked, nothing more sent after the first 410.
    expect((figures.gone as { status: string }).status).toBe('authorization_revoked');
    expect((figures.gone as { delivered: number }).delivered).toBe(10);
    // Down for good: after the whole schedule, failures exceeded and every event in the dead-letter queue.
    expect((figures.dead as { status: string }).status).toBe('notification_failures_exceeded');
    expect(deadLettered).toEqual(deadIds);
    // The chain that gave up ran the whole schedule (19-22 attempts, as its dead letter says);
    // the others of that subscription went to the dead-letter queue at their next turn, unsent.
    // The receiver may have seen fewer: under load, an attempt the sender abandons at its timeout
    // can be one the receiver never read.
    const lastAttempts = deadLetters
      .filter((m) => m.subscription_id === dead.id)
      .map((m) => (m as unknown as { attempt: number }).attempt);
    expect(Math.max(...lastAttempts)).toBeGreaterThanOrEqual(19);
    expect(Math.max(...lastAttempts)).toBeLessThanOrEqual(22);
    const perEvent = toDead.map(
      (e) => receiver.attempts(dead.path).filter((a) => a.id === e.detail.id).length,
    );
    expect(Math.max(...perEvent)).toBeLessThanOrEqual(Math.max(...lastAttempts));
    expect(RETRY.maxElapsedSeconds).toBe(72 * 3600);
  });
});
