import { randomBytes } from 'node:crypto';
import { EVENT_TYPES } from '../events/envelope.ts';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '../errors/errors.ts';
import { logger } from '../observability/index.ts';
import { pageSlice, pagination } from '../pagination.ts';
import { requireStudioCreator } from '../creators/studio-creator.ts';
import { firstAttempt } from './messages.ts';
import { enqueue } from './outbox.ts';
import {
  type CreatedWebhookSubscription,
  type CreateSubscriptionBody,
  DUPLICATE,
  FORBIDDEN,
  type ListSubscriptionsQuery,
  NOT_FOUND,
  type RotatedWebhookSecret,
  ROTATED_RECENTLY,
  type WebhookSubscription,
} from './schemas.ts';
import { ROTATION_OVERLAP_MS, secretOf } from './secrets.ts';
import { CallbackRefusedError, type CallbackPolicy, checkCallback } from './ssrf.ts';
import {
  advanceSecret,
  deleteSubscription,
  getPartnerApproval,
  getSubscription,
  putSubscription,
  type SubscriptionRecord,
  subscriptionsOf,
} from './subscription-repository.ts';

/**
 * The subscriptions API's domain (docs/webhooks.md): who may subscribe to what, the callback's
 * SSRF check, the secret shown once, the verification queued, and ownership on every id.
 */

/** Most subscriptions one account may hold. */
export const MAX_SUBSCRIPTIONS_PER_OWNER = 100;

export const subscriptionView = (r: SubscriptionRecord): WebhookSubscription => ({
  id: r.id,
  type: r.type,
  version: r.version,
  condition: { creator_id: r.creator_id },
  callback: r.callback,
  status: r.status,
  created_at: r.created_at,
  status_changed_at: r.status_changed_at,
  previous_secret_expires_at: r.previous_secret_expires_at ?? null,
});

/**
 * May `accountId` receive `body`'s events? A creator: anything about their own channel. An
 * approved partner: public types of any creator. Everyone else: 403.
 */
const authorize = async (accountId: string, body: CreateSubscriptionBody): Promise<void> => {
  if (body.condition.creator_id === accountId) {
    await requireStudioCreator(accountId);
    return;
  }
  const partner = EVENT_TYPES[body.type] === 'public' && (await getPartnerApproval(accountId)) !== undefined;
  if (!partner) throw new ForbiddenError(FORBIDDEN);
};

/** `POST /webhooks/subscriptions`: the new subscription, its secret (shown once), verification queued. */
export const createSubscription = async (
  accountId: string,
  body: CreateSubscriptionBody,
  now: Date,
  policy: CallbackPolicy,
): Promise<CreatedWebhookSubscription> => {
  await authorize(accountId, body);
  await checkCallback(body.callback, policy).catch((error: Error) => {
    if (error instanceof CallbackRefusedError)
      throw new ValidationError([{ field: 'callback', message: error.message }]);
    throw error;
  });
  const record: SubscriptionRecord = {
    id: `whs_${randomBytes(16).toString('hex')}`,
    owner_id: accountId,
    type: body.type,
    version: body.version,
    creator_id: body.condition.creator_id,
    callback: body.callback,
    status: 'webhook_callback_verification_pending',
    created_at: now.toISOString(),
    status_changed_at: now.toISOString(),
    secret_generation: 1,
  };
  const secret = await secretOf(record.id, 1);
  // The duplicate and per-account limits are conditions of the write itself (one transaction).
  const refusal = await putSubscription(record, MAX_SUBSCRIPTIONS_PER_OWNER);
  if (refusal === 'duplicate') throw new ConflictError(DUPLICATE);
  if (refusal === 'limit')
    throw new ConflictError(
      `An account may hold at most ${MAX_SUBSCRIPTIONS_PER_OWNER} webhook subscriptions`,
    );
  try {
    await enqueue(firstAttempt(record.id, { kind: 'verification' }));
  } catch (error) {
    // Not verified, never delivered to: the subscription goes, and the caller may try again.
    logger.error('webhook verification not queued', { error: (error as Error).name });
    await deleteSubscription(record.id, accountId);
    throw new ServiceUnavailableError('The verification of the callback could not be started: try again');
  }
  return { ...subscriptionView(record), secret };
};

const ownSubscription = async (accountId: string, id: string): Promise<SubscriptionRecord> => {
  const record = await getSubscription(id);
  // Another account's subscription is not found either: ids of others are not confirmed.
  if (!record || record.owner_id !== accountId) throw new NotFoundError(NOT_FOUND);
  return record;
};

export const findSubscription = async (accountId: string, id: string): Promise<WebhookSubscription> =>
  subscriptionView(await ownSubscription(accountId, id));

export const listSubscriptions = async (accountId: string, query: ListSubscriptionsQuery) => {
  const all = await subscriptionsOf(accountId);
  return {
    data: pageSlice(all, query.page, query.limit).map(subscriptionView),
    meta_data: pagination(all.length, query.page, query.limit),
  };
};

export const removeSubscription = async (accountId: string, id: string): Promise<void> => {
  if (!(await deleteSubscription(id, accountId))) throw new NotFoundError(NOT_FOUND);
};

/**
 * How long after a rotation another one is refused (409): requests that overlap in time write
 * within 2 × 29 s of each other (API Gateway ends a request at 29 s), so of rotations that
 * overlap exactly one wins, and no answer hands out a secret that is already only the previous
 * one (docs/webhooks.md "Secrets").
 */
export const ROTATION_GAP_MS = 60_000;

/**
 * `POST .../secret/rotate`: a new secret (shown once); the previous one signs too for 24 hours.
 * One conditional UpdateItem: 404 when it is not the caller's, 409 within ROTATION_GAP_MS of the
 * last rotation.
 */
export const rotateSecret = async (
  accountId: string,
  id: string,
  now: Date,
): Promise<RotatedWebhookSecret> => {
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const outcome = await advanceSecret(id, accountId, until, new Date(until.getTime() - ROTATION_GAP_MS));
  if (outcome === 'not-found') throw new NotFoundError(NOT_FOUND);
  if (outcome === 'too-soon') throw new ConflictError(ROTATED_RECENTLY);
  const record = outcome;
  return {
    id,
    secret: await secretOf(id, record.secret_generation),
    previous_secret_expires_at: until.toISOString(),
  };
};
