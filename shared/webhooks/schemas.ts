import * as z from 'zod/mini';
import { EVENT_TYPE_NAMES } from '../events/envelope.ts';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { idParam, pageQuery, MAX_URL_LENGTH } from '../schema/validation.ts';

/**
 * Webhook subscriptions: request and response schemas, the domain's types (docs/webhooks.md).
 * Statuses and their words are Twitch EventSub's.
 */

export const SUBSCRIPTION_STATUSES = [
  'webhook_callback_verification_pending',
  'enabled',
  'webhook_callback_verification_failed',
  'notification_failures_exceeded',
  'authorization_revoked',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Payload versions each type is delivered in today. */
export const SUPPORTED_VERSIONS = ['1'] as const;

const EXAMPLE_CREATOR = 'acc_demo_creator';
const EXAMPLE_ID = 'whs_3b1f0d2c9a7e4f5b8c6d1e2f3a4b5c6d';
const EXAMPLE_CALLBACK = 'https://hooks.example.com/streaming';

const eventType = /* @__PURE__ */ (() =>
  described(
    z.enum(EVENT_TYPE_NAMES, { error: `must be one of: ${EVENT_TYPE_NAMES.join(', ')}` }),
    'The event type to receive (docs/events.md): `creator.live`, `creator.offline`, ...',
    'creator.live',
  ))();

const Condition = /* @__PURE__ */ (() =>
  named(
    'WebhookCondition',
    z.object({
      creator_id: described(
        z
          .string({ error: 'is required' })
          .check(
            z.minLength(1, { error: 'is required' }),
            z.maxLength(128, { error: 'must be at most 128 characters' }),
            z.regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must contain only letters, digits, _ . : -' }),
          ),
        'The creator whose events are delivered: your own creator id, or (approved partners, public types) any creator',
        EXAMPLE_CREATOR,
      ),
    }),
    'Which events of the type are delivered',
  ))();

/** `POST /webhooks/subscriptions` body. */
export const createSubscriptionBody = /* @__PURE__ */ (() =>
  z.object({
    type: eventType,
    version: described(
      z.enum(SUPPORTED_VERSIONS, { error: `must be one of: ${SUPPORTED_VERSIONS.join(', ')}` }),
      "The type's payload version",
      '1',
    ),
    condition: Condition,
    callback: described(
      z
        .string({ error: 'is required' })
        .check(
          z.minLength(1, { error: 'is required' }),
          z.maxLength(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` }),
        ),
      'Where deliveries are POSTed: an https URL on the default port (443; no other port) of at most 2048 characters whose host resolves to public addresses only',
      EXAMPLE_CALLBACK,
    ),
  }))();
export type CreateSubscriptionBody = z.infer<typeof createSubscriptionBody>;

export const subscriptionPath = /* @__PURE__ */ (() =>
  z.object({ id: described(idParam, 'Subscription id', EXAMPLE_ID) }))();
export const listSubscriptionsQuery = /* @__PURE__ */ (() => z.object(pageQuery(20)))();
export type ListSubscriptionsQuery = z.infer<typeof listSubscriptionsQuery>;

/** The refusals' messages (the handlers throw them; the contracts document them). */
export const NOT_FOUND = 'Webhook subscription not found';
export const FORBIDDEN =
  'You may subscribe to events of your own channel only (approved partners: public events of any creator)';
export const DUPLICATE = 'A subscription with this type, version, condition and callback already exists';
export const ROTATED_RECENTLY =
  "The secret was rotated less than 60 seconds ago: that rotation's answer holds the current secret";

// ---- Responses -------------------------------------------------------------------------------

/**
 * The response schemas, built on the first call of the export below: only the OpenAPI document
 * and the tests call it (through the contracts' `responses`); Lambda bundles leave them out
 * (`responseSchemas`, shared/schema/schema-meta.ts).
 */
const buildResponses = () => {
  const subscriptionFields = {
    id: described(z.string(), 'Subscription id', EXAMPLE_ID),
    type: described(z.enum(EVENT_TYPE_NAMES), 'Event type delivered', 'creator.live'),
    version: described(z.string(), 'Payload version', '1'),
    condition: Condition,
    callback: described(z.string(), 'Where deliveries are POSTed', EXAMPLE_CALLBACK),
    status: described(
      z.enum(SUBSCRIPTION_STATUSES),
      '`webhook_callback_verification_pending` until the callback echoed the challenge, then `enabled`; `webhook_callback_verification_failed`, `notification_failures_exceeded` (deliveries failed for about three days) and `authorization_revoked` (the callback answered 410, or the partner approval was withdrawn) receive nothing more',
      'enabled',
    ),
    created_at: described(z.string(), 'When it was created (ISO 8601, UTC)', '2026-11-24T12:00:00.000Z'),
    status_changed_at: described(
      z.string(),
      'When the status last changed (ISO 8601, UTC)',
      '2026-11-24T12:00:01.000Z',
    ),
    previous_secret_expires_at: described(
      z.nullable(z.string()),
      'During a secret rotation: until when the previous secret still signs deliveries (ISO 8601, UTC); null otherwise',
      null,
    ),
  };

  const WebhookSubscription = named(
    'WebhookSubscription',
    z.object(subscriptionFields),
    'A webhook subscription (its secret is shown only when it is created or rotated)',
  );

  const secret = described(
    z.string(),
    'The signing secret (`whsec_` + base64), shown ONLY in this answer: keep it, it verifies the `webhook-signature` of every delivery (Standard Webhooks)',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  );

  const CreatedWebhookSubscription = named(
    'CreatedWebhookSubscription',
    z.object({ ...subscriptionFields, secret }),
    'The new subscription with its secret, shown once; verification of the callback starts at once',
  );

  const WebhookSubscriptionList = named(
    'WebhookSubscriptionList',
    z.array(WebhookSubscription),
    "A page of the caller's subscriptions, newest first",
  );

  const RotatedWebhookSecret = named(
    'RotatedWebhookSecret',
    z.object({
      id: described(z.string(), 'Subscription id', EXAMPLE_ID),
      secret,
      previous_secret_expires_at: described(
        z.string(),
        'Until when deliveries carry a second signature made with the previous secret (24 hours)',
        '2026-11-25T12:00:00.000Z',
      ),
    }),
    'The new secret, shown once; deliveries are signed with both secrets for 24 hours',
  );

  return { WebhookSubscription, CreatedWebhookSubscription, WebhookSubscriptionList, RotatedWebhookSecret };
};
export const webhookResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
type Built = ReturnType<typeof buildResponses>;

export type WebhookSubscription = z.infer<Built['WebhookSubscription']>;
export type CreatedWebhookSubscription = z.infer<Built['CreatedWebhookSubscription']>;
export type RotatedWebhookSecret = z.infer<Built['RotatedWebhookSecret']>;
