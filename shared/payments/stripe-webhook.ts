import type Stripe from 'stripe';
import { clock } from '../clock.ts';
import { BadRequestError } from '../errors/errors.ts';
import { eventProcessed, markEventProcessed } from './billing-repository.ts';
import { setCapabilities } from './payout-repository.ts';
import { applicationFeePercent, graceDays } from './settings.ts';
import { stripe, stripeSecrets } from './stripe-client.ts';
import { type SyncContext, syncCharge, syncCheckout, syncInvoice, syncSubscription } from './stripe-sync.ts';

/**
 * Stripe's webhooks (docs/payments.md, "Webhooks"): the signature is checked on the raw body
 * before anything is read or written (a missing, wrong or stale one is a 400 and writes nothing);
 * an event already processed is acknowledged and skipped; otherwise the object the event names is
 * re-read from Stripe and its current state applied (stripe-sync.ts), then the event is marked
 * processed (a conditional write). Unhandled types are acknowledged, so Stripe stops retrying.
 */

/** Stripe's own default: a signature older than 5 minutes is refused (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookEndpoint = 'platform' | 'connect';

/**
 * The events each endpoint subscribes to (`enabled_events` when registering it with Stripe): the
 * types `applyEvent` acts on, and no others, so Stripe sends nothing the platform would only
 * acknowledge (docs/payments.md, "What a real Stripe account needs").
 */
export const SUBSCRIBED_EVENTS: Record<WebhookEndpoint, readonly Stripe.Event.Type[]> = {
  platform: [
    'checkout.session.completed',
    'checkout.session.async_payment_succeeded',
    'checkout.session.async_payment_failed',
    'customer.subscription.created',
    'customer.subscription.updated',
    'customer.subscription.deleted',
    'invoice.paid',
    'invoice.payment_failed',
    'charge.refunded',
    'charge.dispute.created',
    'charge.dispute.closed',
  ],
  connect: ['account.updated'],
};

/** Verifies and parses a delivery; 400 for anything not signed by Stripe within the tolerance. */
export const verifiedEvent = (
  client: Stripe,
  rawBody: string,
  signature: string | undefined,
  secret: string,
  now: Date,
): Stripe.Event => {
  if (!signature) throw new BadRequestError('Missing Stripe-Signature header');
  if (!secret) throw new Error('The Stripe secret has no signing secret for this webhook endpoint');
  try {
    return client.webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      now.getTime(), // milliseconds: the library divides by 1000
    );
  } catch {
    throw new BadRequestError('Invalid Stripe-Signature');
  }
};

const objectId = (event: Stripe.Event): string => (event.data.object as { id: string }).id;

/** What one event makes the platform re-read and apply (by type). */
export const applyEvent = async (ctx: SyncContext, event: Stripe.Event): Promise<boolean> => {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
      await syncCheckout(ctx, objectId(event));
      return true;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await syncSubscription(ctx, objectId(event));
      return true;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      await syncInvoice(ctx, objectId(event));
      return true;
    case 'charge.refunded':
      await syncCharge(ctx, objectId(event));
      return true;
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = await ctx.stripe.disputes.retrieve(objectId(event));
      await syncCharge(ctx, typeof dispute.charge === 'string' ? dispute.charge : dispute.charge.id);
      return true;
    }
    case 'account.updated': {
      const observedAt = ctx.now(); // before the read (SyncContext.now)
      const account = await ctx.stripe.accounts.retrieve(objectId(event));
      const creatorId = account.metadata?.creator_id;
      if (creatorId)
        await setCapabilities(
          creatorId,
          account.id,
          { charges_enabled: account.charges_enabled, payouts_enabled: account.payouts_enabled },
          observedAt,
        );
      return true;
    }
    default:
      return false;
  }
};

/** The container's sync context: its client, the clock, the configured grace and fee. */
export const syncContext = async (): Promise<SyncContext> => ({
  stripe: await stripe(),
  now: () => clock.now(),
  graceDays: graceDays(),
  feePercent: applicationFeePercent(),
});

export interface WebhookReceipt {
  received: true;
  event_id: string;
  type: string;
  /** `processed`; `duplicate` (already processed before); `ignored` (a type the platform does not act on). */
  outcome: 'processed' | 'duplicate' | 'ignored';
}

/**
 * One delivery: verified with `secret` (nothing is read or written before), skipped when its
 * event was processed, else applied and marked processed.
 */
export const handleDelivery = async (
  ctx: SyncContext,
  secret: string,
  rawBody: string,
  signature: string | undefined,
  now: Date,
): Promise<WebhookReceipt> => {
  const event = verifiedEvent(ctx.stripe, rawBody, signature, secret, now);
  const receipt = { received: true as const, event_id: event.id, type: event.type };
  if (await eventProcessed(event.id)) return { ...receipt, outcome: 'duplicate' };
  const handled = await applyEvent(ctx, event);
  await markEventProcessed(event, now);
  return { ...receipt, outcome: handled ? 'processed' : 'ignored' };
};

/** `POST /billing/stripe/webhook` and `/billing/stripe/connect-webhook`: the container's client and secrets. */
export const receiveStripeEvent = async (
  endpoint: WebhookEndpoint,
  rawBody: string,
  signature: string | undefined,
  now: Date,
): Promise<WebhookReceipt> => {
  const secrets = await stripeSecrets();
  const secret = endpoint === 'connect' ? secrets.connect_webhook_secret : secrets.webhook_secret;
  return handleDelivery(await syncContext(), secret, rawBody, signature, now);
};
