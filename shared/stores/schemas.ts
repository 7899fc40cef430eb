import * as z from 'zod/mini';
import { described, named, responseSchemas, responsesNotBundled } from '../http/schema-meta.ts';
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
    'eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlF...',
  );

/** `POST /billing/apple/notifications`: App Store Server Notifications V2's body (other fields ignored). */
export const appleNotificationBody = z.object({
  signedPayload: jws('The notification, signed by the App Store (a JWS with the x5c chain)'),
});

/** `POST /billing/apple/transactions`: the transaction StoreKit answered the app. */
export const appleTransactionBody = z.strictObject({
  signed_transaction: jws("StoreKit 2's `Transaction.jwsRepresentation` of the purchase"),
});

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
