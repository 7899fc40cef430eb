import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../schema/schema-meta.ts';
import { paymentResponses } from '../payments/schemas.ts';

/** A signed JWS as the stores send it: three base64url parts (at most 64 KB). */
const jws = (what: string) =>
  described(
    z
      .string({ error: 'must be a string' })
      .check(
        z.minLength(1, { error: 'is required' }),
        z.maxLength(65_536, { error: 'must be at most 65536 characters' }),
        z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, { error: 'must be a compact JWS' }),
      ),
    what,
    // Header (ES256 with the x5c chain), payload, signature: shortened, but a compact JWS's shape.
    'eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlCLi4uIl19.eyJub3RpZmljYXRpb25UeXBlIjoiU1VCU0NSSUJFRCJ9.MEUCIQDxYz',
  );

/** `POST /billing/apple/notifications`: App Store Server Notifications V2's body (other fields ignored). */
export const appleNotificationBody = /* @__PURE__ */ (() =>
  z.object({
    signedPayload: jws('The notification, signed by the App Store (a JWS with the x5c chain)'),
  }))();

/** `POST /billing/apple/transactions`: the transaction StoreKit answered the app. */
export const appleTransactionBody = /* @__PURE__ */ (() =>
  z.strictObject({
    signed_transaction: jws("StoreKit 2's `Transaction.jwsRepresentation` of the purchase"),
  }))();

/** `POST /billing/google/notifications`: a Pub/Sub push (Real-time developer notifications). */
export const googlePushBody = /* @__PURE__ */ (() =>
  z.object({
    message: z.object({
      data: described(
        z
          .string({ error: 'must be a string' })
          .check(
            z.maxLength(65_536, { error: 'must be at most 65536 characters' }),
            z.regex(/^[A-Za-z0-9+/=]*$/, { error: 'must be base64' }),
          ),
        'The developer notification, base64 JSON',
        'eyJ2ZXJzaW9uIjoiMS4wIn0=',
      ),
      messageId: described(
        z
          .string({ error: 'must be a string' })
          .check(
            z.minLength(1, { error: 'is required' }),
            z.maxLength(256, { error: 'must be at most 256 characters' }),
          ),
        "Pub/Sub's message id (deduplication)",
        '136969346945',
      ),
      message_id: z.optional(z.string()),
      publishTime: z.optional(z.string()),
      publish_time: z.optional(z.string()),
      attributes: z.optional(z.record(z.string(), z.string())),
      orderingKey: z.optional(z.string()),
    }),
    subscription: z.optional(z.string()),
  }))();

/** `POST /billing/google/purchases`: what Play Billing answered the app. */
export const googlePurchaseBody = /* @__PURE__ */ (() =>
  z.strictObject({
    purchase_token: described(
      z
        .string({ error: 'must be a string' })
        .check(
          z.minLength(1, { error: 'is required' }),
          z.maxLength(1024, { error: 'must be at most 1024 characters' }),
          z.regex(/^[A-Za-z0-9._:-]+$/, { error: 'must be a Play purchase token' }),
        ),
      "Play Billing's `Purchase.getPurchaseToken()`",
      'opaque-token-up-to-1024-characters',
    ),
    product_id: described(
      z
        .string({ error: 'must be a string' })
        .check(
          z.minLength(1, { error: 'is required' }),
          z.maxLength(200, { error: 'must be at most 200 characters' }),
        ),
      'The product bought (`tv.creators.sub.<creator id>` or `tv.creators.ppv.<content id>`)',
      'tv.creators.sub.cr_0001',
    ),
  }))();

const buildResponses = () => {
  const StoreReceipt = named(
    'StoreNotificationReceipt',
    z.object({
      received: described(z.boolean(), 'Always true', true),
      notification_id: described(
        z.string(),
        "The notification's id (Apple's notificationUUID, Pub/Sub's messageId)",
        '002e14d5-51f5-4503-b5a8-c3a1af68eb20',
      ),
      type: described(z.string(), 'Its type', 'SUBSCRIBED'),
      outcome: described(
        z.enum(['processed', 'duplicate', 'ignored']),
        '`processed`; `duplicate` (processed before: nothing done); `ignored` (nothing to apply: no purchase in it, a product or account this platform does not know, or a paid-up entitlement from another source kept)',
        'processed',
      ),
    }),
    'Acknowledgement of an app store notification',
  );
  return { StoreReceipt, Entitlement: paymentResponses().Entitlement };
};

export const storeResponses =
  process.env.LAMBDA_BUNDLE_RESPONSES === 'none' ? responsesNotBundled : responseSchemas(buildResponses);
