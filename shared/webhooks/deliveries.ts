import { randomBytes } from 'node:crypto';
import { type PlatformEvent, PlatformEvent as PlatformEventSchema } from '../events/envelope.ts';
import { type DeliveryMessage, firstAttempt } from './messages.ts';
import { deadLetter, enqueue } from './outbox.ts';
import { planRetry, parseRetryAfter } from './retry.ts';
import { signingSecrets } from './secrets.ts';
import { signedHeaders } from './signing.ts';
import type { CallbackPolicy } from './ssrf.ts';
import {
  changeStatus,
  enabledSubscriptionsFor,
  getSubscription,
  type SubscriptionRecord,
} from './subscription-repository.ts';
import { type PostResult, postWebhook } from './http-post.ts';

/**
 * The delivery path (docs/webhooks.md): the fan-out turns one platform event into one queued
 * message per matching enabled subscription; the sender makes one attempt per message (a
 * verification challenge, or a signed Standard Webhooks delivery) and decides what follows:
 * done, retry later (backoff with jitter, Retry-After), revoked (410), or failures exceeded
 * (dead-letter queue). The HTTP request and the clock are injected.
 */

/** Largest delivery body: Standard Webhooks payloads stay small; ours are well under it. */
export const MAX_BODY_BYTES = 20 * 1024;

/** The body of a delivery: the same bytes on every attempt of an event. */
export const deliveryBody = (event: PlatformEvent): string =>
  JSON.stringify({ type: event.type, timestamp: event.time, data: event.data });

export type FanOutResult =
  | { kind: 'invalid'; reason: string }
  | { kind: 'too-large'; eventId: string; bytes: number }
  | { kind: 'queued'; eventId: string; type: string; subscriptions: number };

/** One EventBridge event (`detail` a PlatformEvent) → one message per enabled matching subscription. */
export const fanOut = async (event: unknown): Promise<FanOutResult> => {
  const parsed = PlatformEventSchema.safeParse((event as { detail?: unknown } | undefined)?.detail);
  if (!parsed.success) return { kind: 'invalid', reason: parsed.error.issues[0]?.message ?? 'invalid' };
  const detail = parsed.data;
  const bytes = Buffer.byteLength(deliveryBody(detail));
  if (bytes > MAX_BODY_BYTES) return { kind: 'too-large', eventId: detail.id, bytes };
  const subscriptions = (await enabledSubscriptionsFor(detail.type, detail.creator_id)).filter(
    (s) => s.version === detail.version,
  );
  for (const subscription of subscriptions)
    await enqueue(firstAttempt(subscription.id, { kind: 'event', event: detail }));
  return { kind: 'queued', eventId: detail.id, type: detail.type, subscriptions: subscriptions.length };
};

export type Outcome =
  | 'held'
  | 'delivered'
  | 'retry-scheduled'
  | 'revoked'
  | 'failures-exceeded'
  | 'dead-lettered'
  | 'verified'
  | 'verification-failed'
  | 'dropped';

export interface AttemptReport {
  outcome: Outcome;
  subscriptionId: string;
  eventId?: string;
  attempt: number;
  status?: number;
  failure?: PostResult['failure'];
  /** Why the SSRF guard refused the callback (with `failure: callback_refused`). */
  refusal?: string;
  delaySeconds?: number;
  /** Why a message was dropped (the subscription's status, or `gone`). */
  reason?: string;
  durationMs?: number;
}

export interface SenderDeps {
  now: () => Date;
  random: () => number;
  policy: CallbackPolicy;
  post?: typeof postWebhook;
}

const success = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

const verify = async (
  message: Extract<DeliveryMessage, { kind: 'verification' }>,
  subscription: SubscriptionRecord,
  deps: SenderDeps,
): Promise<AttemptReport> => {
  const base = { subscriptionId: subscription.id, attempt: message.attempt };
  if (subscription.status !== 'webhook_callback_verification_pending')
    return { ...base, outcome: 'dropped', reason: subscription.status };
  const now = deps.now();
  const challenge = randomBytes(24).toString('base64url');
  const body = JSON.stringify({
    type: 'webhook_callback_verification',
    timestamp: now.toISOString(),
    data: {
      challenge,
      subscription: {
        id: subscription.id,
        type: subscription.type,
        version: subscription.version,
        condition: { creator_id: subscription.creator_id },
      },
    },
  });
  const headers = {
    ...signedHeaders(
      await signingSecrets(subscription, now),
      `verify_${subscription.id}`,
      Math.floor(now.getTime() / 1000),
      body,
    ),
    'webhook-message-type': 'webhook_callback_verification',
  };
  const result = await (deps.post ?? postWebhook)(subscription.callback, headers, body, deps.policy);
  const echoed = success(result.status) && result.body.trim() === challenge;
  await changeStatus(
    subscription,
    echoed ? 'enabled' : 'webhook_callback_verification_failed',
    ['webhook_callback_verification_pending'],
    deps.now(),
  );
  return {
    ...base,
    outcome: echoed ? 'verified' : 'verification-failed',
    status: result.status,
    failure: result.failure,
    refusal: result.refusal,
    durationMs: result.durationMs,
  };
};

const deliver = async (
  message: Extract<DeliveryMessage, { kind: 'event' }>,
  subscription: SubscriptionRecord,
  deps: SenderDeps,
): Promise<AttemptReport> => {
  const base = { subscriptionId: subscription.id, eventId: message.event.id, attempt: message.attempt };
  if (subscription.status === 'notification_failures_exceeded') {
    // Undelivered, not refused: kept with the others of this subscription for a replay.
    await deadLetter(message);
    return { ...base, outcome: 'dead-lettered', reason: subscription.status };
  }
  if (subscription.status !== 'enabled') return { ...base, outcome: 'dropped', reason: subscription.status };
  const now = deps.now();
  const body = deliveryBody(message.event);
  const headers = signedHeaders(
    await signingSecrets(subscription, now),
    message.event.id,
    Math.floor(now.getTime() / 1000),
    body,
  );
  const result = await (deps.post ?? postWebhook)(subscription.callback, headers, body, deps.policy);
  const answer = {
    status: result.status,
    failure: result.failure,
    refusal: result.refusal,
    durationMs: result.durationMs,
  };
  if (success(result.status)) return { ...base, ...answer, outcome: 'delivered' };
  if (result.status === 410) {
    await changeStatus(subscription, 'authorization_revoked', ['enabled'], deps.now());
    return { ...base, ...answer, outcome: 'revoked' };
  }
  const plan = planRetry({
    failedAttempt: message.attempt,
    elapsedSeconds: message.elapsed_seconds,
    retryAfterSeconds: parseRetryAfter(result.retryAfter, now),
    random: deps.random(),
  });
  if (plan.kind === 'retry') {
    await enqueue(
      {
        ...message,
        attempt: message.attempt + 1,
        elapsed_seconds: message.elapsed_seconds + plan.delaySeconds,
      },
      plan.delaySeconds,
    );
    return { ...base, ...answer, outcome: 'retry-scheduled', delaySeconds: plan.delaySeconds };
  }
  await changeStatus(subscription, 'notification_failures_exceeded', ['enabled'], deps.now());
  await deadLetter(message);
  return { ...base, ...answer, outcome: 'failures-exceeded' };
};

/** One message of the delivery queue: one attempt, and what follows from it. */
export const handleMessage = async (message: DeliveryMessage, deps: SenderDeps): Promise<AttemptReport> => {
  const base = {
    subscriptionId: message.subscription_id,
    attempt: message.attempt,
    ...(message.kind === 'event' ? { eventId: message.event.id } : {}),
  };
  if (message.hold_seconds > 0) {
    await enqueue({ ...message, hold_seconds: 0 }, message.hold_seconds);
    return { ...base, outcome: 'held', delaySeconds: message.hold_seconds };
  }
  const subscription = await getSubscription(message.subscription_id);
  if (!subscription) return { ...base, outcome: 'dropped', reason: 'gone' };
  return message.kind === 'verification'
    ? verify(message, subscription, deps)
    : deliver(message, subscription, deps);
};
