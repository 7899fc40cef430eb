import { contract } from '../../shared/http/contract.ts';
import {
  createSubscriptionBody,
  DUPLICATE,
  FORBIDDEN,
  NOT_FOUND,
  ROTATED_RECENTLY,
  listSubscriptionsQuery,
  subscriptionPath,
  webhookResponses,
} from '../../shared/webhooks/schemas.ts';
import { Pagination } from '../../shared/pagination.ts';

const tag = 'Webhooks';
const notFound = {
  description:
    "No subscription of the caller has this id (another account's subscription is not found either)",
  message: NOT_FOUND,
} as const;

export const createWebhookSubscription = /* @__PURE__ */ contract({
  operationId: 'createWebhookSubscription',
  method: 'POST',
  path: '/webhooks/subscriptions',
  handler: 'webhooks/create-subscription',
  // GetItem: the caller's creator, or their partner approval. PutItem and UpdateItem: the
  // subscription with its uniqueness item and the owner's count, in one transaction (the duplicate
  // and the limit are its conditions; no Query). DeleteItem: them again, when its verification
  // could not be queued (503).
  dynamo: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  needs: ['webhook-secrets', 'webhook-outbox'],
  auth: 'required',
  rateLimit: { limit: 20, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 20, burst: 40 },
  tag,
  summary: 'Subscribe a callback URL to platform events (signed webhooks)',
  description:
    "Subscribes `callback` to `type` events about `condition.creator_id`: a creator to their own channel's events, an operator-approved partner to any creator's public events. The answer carries the signing secret (`whsec_...`) ONCE. The subscription starts `webhook_callback_verification_pending`: a challenge is POSTed to the callback at once (`type: webhook_callback_verification`, signed) and the callback must answer 2xx with the challenge as its body; then it is `enabled` and deliveries start (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). The callback must be https on the default port (443: a URL naming another port is a 422) and resolve to public addresses only (docs/webhooks.md).",
  request: { body: createSubscriptionBody },
  responses: () => ({
    201: {
      description: 'The subscription, with its secret (shown once)',
      data: webhookResponses().CreatedWebhookSubscription,
    },
    403: {
      description:
        "The condition names another creator and the caller is not an approved partner, or the type is private (only its creator may subscribe), or the caller's own creator does not exist yet (onboarding)",
      message: FORBIDDEN,
    },
    409: {
      description: `The same subscription exists already, or the caller holds the most subscriptions an account may (100)`,
      message: DUPLICATE,
    },
  }),
});

export const listWebhookSubscriptions = /* @__PURE__ */ contract({
  operationId: 'listWebhookSubscriptions',
  method: 'GET',
  path: '/webhooks/subscriptions',
  handler: 'webhooks/list-subscriptions',
  dynamo: { actions: [], indexes: ['GSI1'] },
  auth: 'required',
  tag,
  summary: "The caller's webhook subscriptions (paginated, newest first)",
  description:
    "A page of the caller's webhook subscriptions with their status, newest first. Secrets are never listed.",
  request: { query: listSubscriptionsQuery },
  responses: () => ({
    200: {
      description: 'A page of subscriptions',
      data: webhookResponses().WebhookSubscriptionList,
      meta: Pagination,
    },
  }),
});

export const getWebhookSubscription = /* @__PURE__ */ contract({
  operationId: 'getWebhookSubscription',
  method: 'GET',
  path: '/webhooks/subscriptions/{id}',
  handler: 'webhooks/get-subscription',
  dynamo: { actions: ['GetItem'] },
  auth: 'required',
  tag,
  summary: "One of the caller's webhook subscriptions, with its status",
  description:
    'The subscription and its status: `webhook_callback_verification_pending`, `enabled`, `webhook_callback_verification_failed`, `notification_failures_exceeded` or `authorization_revoked`.',
  request: { path: subscriptionPath },
  responses: () => ({
    200: { description: 'The subscription', data: webhookResponses().WebhookSubscription },
    404: notFound,
  }),
});

export const deleteWebhookSubscription = /* @__PURE__ */ contract({
  operationId: 'deleteWebhookSubscription',
  method: 'DELETE',
  path: '/webhooks/subscriptions/{id}',
  handler: 'webhooks/delete-subscription',
  dynamo: { actions: ['GetItem', 'DeleteItem', 'UpdateItem'] },
  auth: 'required',
  tag,
  summary: "Delete one of the caller's webhook subscriptions",
  description:
    'Deletes the subscription: nothing more is delivered to its callback (a delivery already under way may still arrive).',
  request: { path: subscriptionPath },
  responses: () => ({ 204: { description: 'The subscription is deleted' }, 404: notFound }),
});

export const rotateWebhookSecret = /* @__PURE__ */ contract({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/webhooks/subscriptions/{id}/secret/rotate',
  handler: 'webhooks/rotate-secret',
  dynamo: { actions: ['UpdateItem'] },
  needs: ['webhook-secrets'],
  auth: 'required',
  rateLimit: { limit: 10, windowSeconds: 3600, by: 'account' },
  throttle: { rate: 10, burst: 20 },
  tag,
  summary: "Rotate a webhook subscription's signing secret (the old one signs too for 24 h)",
  description:
    'A new secret, shown once in this answer. For 24 hours every delivery carries two signatures in `webhook-signature` (new and previous secret), so the receiver can switch without losing a delivery; then only the new one. Rotating again within the 24 hours ends the older secret at once. A rotation less than 60 s after the last one is a 409 and changes nothing: of rotations sent at the same time exactly one answers 200, and its secret is the current one.',
  request: { path: subscriptionPath },
  responses: () => ({
    200: { description: 'The new secret', data: webhookResponses().RotatedWebhookSecret },
    404: notFound,
    409: {
      description:
        "The secret was rotated less than 60 s ago (a concurrent rotation won): nothing changed; the secret in that rotation's answer is the current one",
      message: ROTATED_RECENTLY,
    },
  }),
});

export const webhookContracts = [
  createWebhookSubscription,
  listWebhookSubscriptions,
  getWebhookSubscription,
  deleteWebhookSubscription,
  rotateWebhookSecret,
] as const;
