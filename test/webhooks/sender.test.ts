import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlatformEvent } from '../../shared/events/envelope.ts';
import type { DeliveryMessage } from '../../shared/webhooks/messages.ts';
import type { SubscriptionRecord } from '../../shared/webhooks/subscription-repository.ts';

/**
 * The sender's decisions, with the table, the queues, KMS and the network replaced in memory:
 * what each answer of a receiver leads to.
 */
const state = vi.hoisted(() => ({
  subscription: undefined as SubscriptionRecord | undefined,
  statusChanges: [] as Array<{ to: string; from: readonly string[] }>,
  queued: [] as Array<{ message: DeliveryMessage; delay: number }>,
  deadLetters: [] as DeliveryMessage[],
}));
vi.mock('../../shared/webhooks/subscription-repository.ts', () => ({
  getSubscription: async () => state.subscription,
  changeStatus: async (_r: unknown, to: string, from: readonly string[]) => {
    state.statusChanges.push({ to, from });
    return true;
  },
  enabledSubscriptionsFor: async () => [],
}));
vi.mock('../../shared/webhooks/outbox.ts', () => ({
  enqueue: async (message: DeliveryMessage, delay = 0) => {
    state.queued.push({ message, delay });
  },
  deadLetter: async (message: DeliveryMessage) => {
    state.deadLetters.push(message);
  },
}));
vi.mock('../../shared/webhooks/secrets.ts', () => ({
  signingSecrets: async () => ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
}));

const { handleMessage } = await import('../../shared/webhooks/deliveries.ts');

const event: PlatformEvent = {
  id: 'evt_1',
  type: 'creator.live',
  version: '1',
  time: '2026-11-24T12:00:00.000Z',
  creator_id: 'cr_0001',
  data: { creator_id: 'cr_0001' },
};
const message = (over: Partial<DeliveryMessage> = {}): DeliveryMessage =>
  ({
    kind: 'event',
    event,
    subscription_id: 'whs_1',
    attempt: 1,
    elapsed_seconds: 0,
    hold_seconds: 0,
    ...over,
  }) as DeliveryMessage;
const answering = (status: number | undefined, headers: { retryAfter?: string } = {}) => ({
  now: () => new Date('2026-11-24T12:00:00Z'),
  random: () => 0.5,
  policy: { allowPrivate: false },
  post: vi.fn(async () => ({
    status,
    retryAfter: headers.retryAfter,
    body: '',
    failure: status === undefined ? ('timeout' as const) : undefined,
    durationMs: 1,
  })),
});

beforeEach(() => {
  state.subscription = {
    id: 'whs_1',
    owner_id: 'cr_0001',
    type: 'creator.live',
    version: '1',
    creator_id: 'cr_0001',
    callback: 'https://hooks.example.com/x',
    status: 'enabled',
    created_at: '2026-11-24T00:00:00.000Z',
    status_changed_at: '2026-11-24T00:00:00.000Z',
    secret_generation: 1,
  };
  state.statusChanges = [];
  state.queued = [];
  state.deadLetters = [];
});

describe('the sender', () => {
  it('2xx: delivered, nothing queued, signed headers with the event id', async () => {
    const deps = answering(204);
    expect((await handleMessage(message(), deps)).outcome).toBe('delivered');
    const [, headers] = deps.post.mock.calls[0] as unknown as [string, Record<string, string>];
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(state.queued).toEqual([]);
  });

  it('410: the subscription is revoked (authorization_revoked, from enabled), no retry', async () => {
    expect((await handleMessage(message(), answering(410))).outcome).toBe('revoked');
    expect(state.statusChanges).toEqual([{ to: 'authorization_revoked', from: ['enabled'] }]);
    expect(state.queued).toEqual([]);
  });

  it('5xx or a timeout: the next attempt is queued with the same event, after the backoff', async () => {
    for (const status of [500, undefined]) {
      state.queued = [];
      expect(
        (await handleMessage(message({ attempt: 3, elapsed_seconds: 30 }), answering(status))).outcome,
      ).toBe('retry-scheduled');
      expect(state.queued).toHaveLength(1);
      expect(state.queued[0]).toMatchObject({
        delay: 40,
        message: { attempt: 4, elapsed_seconds: 70, event },
      });
    }
  });

  it('a stored callback the guard now refuses (another port) is not posted: the attempt records why, and is retried', async () => {
    // Subscribed before the port rule: the real postWebhook refuses it before any connection.
    state.subscription = { ...state.subscription!, callback: 'https://hooks.example.com:8443/x' };
    const report = await handleMessage(message(), {
      now: () => new Date('2026-11-24T12:00:00Z'),
      random: () => 0.5,
      policy: { allowPrivate: false },
    });
    expect(report).toMatchObject({
      outcome: 'retry-scheduled',
      failure: 'callback_refused',
      refusal: 'callback must use the default https port (443)',
    });
    expect(report.status).toBeUndefined();
  });

  it('Retry-After longer than the backoff is honoured', async () => {
    await handleMessage(message(), answering(429, { retryAfter: '600' }));
    expect(state.queued[0]?.delay).toBe(600);
  });

  it('after ~3 days of failures: notification_failures_exceeded and the message to the dead-letter queue', async () => {
    const last = message({ attempt: 20, elapsed_seconds: 70 * 3600 });
    expect((await handleMessage(last, answering(503))).outcome).toBe('failures-exceeded');
    expect(state.statusChanges).toEqual([{ to: 'notification_failures_exceeded', from: ['enabled'] }]);
    expect(state.deadLetters).toEqual([last]);
    expect(state.queued).toEqual([]);
  });

  it('later messages of a subscription whose failures were exceeded go to the dead-letter queue unsent', async () => {
    state.subscription!.status = 'notification_failures_exceeded';
    const deps = answering(204);
    expect((await handleMessage(message(), deps)).outcome).toBe('dead-lettered');
    expect(deps.post).not.toHaveBeenCalled();
    expect(state.deadLetters).toHaveLength(1);
  });

  it('a revoked or deleted subscription gets nothing', async () => {
    state.subscription!.status = 'authorization_revoked';
    const deps = answering(204);
    expect((await handleMessage(message(), deps)).outcome).toBe('dropped');
    state.subscription = undefined;
    expect((await handleMessage(message(), deps)).outcome).toBe('dropped');
    expect(deps.post).not.toHaveBeenCalled();
  });

  it('a wait longer than 15 minutes hops: held messages are re-queued for the rest of their wait', async () => {
    const deps = answering(204);
    expect((await handleMessage(message({ hold_seconds: 2700 }), deps)).outcome).toBe('held');
    expect(state.queued).toEqual([{ message: message({ hold_seconds: 0 }), delay: 2700 }]);
    expect(deps.post).not.toHaveBeenCalled();
  });
});
