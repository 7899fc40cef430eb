import { randomBytes } from 'node:crypto';
import { noSuch } from './params.ts';

/**
 * The Stripe stand-in's memory: every object by id (customers, prices, sessions, subscriptions,
 * invoices, payment intents, charges, refunds, disputes, accounts, webhook endpoints, events),
 * in creation order, plus the event log every state change appends to. Objects are plain JSON in
 * Stripe's shapes (API version `API_VERSION`, the one the pinned `stripe` package sends), so an
 * answer is a copy of the stored object with its expansions applied.
 */

/** The API version of stripe@23.1.0 (node_modules/stripe/cjs/apiVersion.js): events carry it. */
export const API_VERSION = '2026-10-28.endive';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const random = (length: number) =>
  Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');

/** A Stripe-style id: `cus_` + 14 characters, `cs_test_` + 58, others `<prefix>_` + 24. */
export const newId = (prefix: string): string => {
  if (prefix === 'cs') return `cs_test_${random(58)}`;
  if (prefix === 'cus' || prefix === 'prod') return `${prefix}_${random(14)}`;
  if (prefix === 'acct') return `acct_1${random(15)}`;
  return `${prefix}_1${random(23)}`;
};

export type Metadata = Record<string, string>;

/** Any stored Stripe object: an id, its `object` name, and its fields. */
export interface StripeObject {
  id: string;
  object: string;
  created: number;
  [field: string]: unknown;
}

/** A Stripe list: `{ object: 'list', data, has_more, url }`. */
export interface StripeList<T = StripeObject> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export const list = <T>(url: string, data: T[], hasMore = false): StripeList<T> => ({
  object: 'list',
  data,
  has_more: hasMore,
  url,
});

export interface Price extends StripeObject {
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  product: string;
  recurring: {
    interval: 'day' | 'week' | 'month' | 'year';
    interval_count: number;
    meter: null;
    usage_type: 'licensed';
  } | null;
  type: 'one_time' | 'recurring';
  metadata: Metadata;
}

export interface SubscriptionItem extends StripeObject {
  object: 'subscription_item';
  price: Price;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
}

export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid';

export interface Subscription extends StripeObject {
  object: 'subscription';
  customer: string;
  status: SubscriptionStatus;
  items: StripeList<SubscriptionItem>;
  /** Where its billing periods are counted from (its start): `periodEndAfter` in billing.ts. */
  billing_cycle_anchor: number;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  latest_invoice: string | null;
  metadata: Metadata;
  currency: string;
  application_fee_percent: number | null;
  transfer_data: { destination: string; amount_percent: number | null } | null;
}

export interface Invoice extends StripeObject {
  object: 'invoice';
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  currency: string;
  period_start: number;
  period_end: number;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Metadata };
    quote_details: null;
  } | null;
  status_transitions: {
    finalized_at: number | null;
    paid_at: number | null;
    voided_at: null;
    marked_uncollectible_at: null;
  };
}

export interface PaymentIntent extends StripeObject {
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  latest_charge: string | null;
  application_fee_amount: number | null;
  transfer_data: { destination: string } | null;
  last_payment_error: Record<string, unknown> | null;
  metadata: Metadata;
}

export interface Charge extends StripeObject {
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  refunded: boolean;
  disputed: boolean;
  paid: boolean;
  status: 'succeeded' | 'failed' | 'pending';
  currency: string;
  customer: string | null;
  payment_intent: string;
  metadata: Metadata;
  /** The transfer of a destination charge (`tr_`), once it succeeded. */
  transfer?: string;
}

export interface Dispute extends StripeObject {
  object: 'dispute';
  status: 'warning_needs_response' | 'needs_response' | 'under_review' | 'won' | 'lost';
  charge: string;
  payment_intent: string;
  amount: number;
}

export interface CheckoutSession extends StripeObject {
  object: 'checkout.session';
  mode: 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  amount_total: number;
  currency: string;
  expires_at: number;
  subscription: string | null;
  payment_intent: string | null;
  invoice: string | null;
  metadata: Metadata;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
}

export interface Account extends StripeObject {
  object: 'account';
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  metadata: Metadata;
  email: string | null;
}

export interface WebhookEndpoint extends StripeObject {
  object: 'webhook_endpoint';
  url: string;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  metadata: Metadata;
}

export interface StripeEvent extends StripeObject {
  object: 'event';
  type: string;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
  request: { id: string | null; idempotency_key: string | null };
  account?: string;
}

/** What the store hands the deliverer: the events of one state change, in Stripe's order. */
export type EventSink = (events: StripeEvent[]) => void;

/** Internal facts Stripe keeps that are not fields of the object (line items, endpoint secrets). */
interface Hidden {
  lineItems: Map<string, StripeObject[]>;
  secrets: Map<string, string>;
  /** The connect flag of each webhook endpoint (Stripe shows it only at creation). */
  connect: Map<string, boolean>;
  /** Checkout session parameters applied on completion. */
  checkout: Map<string, CheckoutPlan>;
}

/** What a Checkout Session will create when it is paid. */
export interface CheckoutPlan {
  subscriptionData: {
    metadata: Metadata;
    applicationFeePercent: number | null;
    destination: string | null;
  };
  paymentIntentData: {
    metadata: Metadata;
    applicationFeeAmount: number | null;
    destination: string | null;
    description: string | null;
  };
  customerCreation: 'always' | 'if_required';
}

/** The in-memory store; `now()` is the clock (milliseconds), injectable for tests. */
export class Store {
  readonly objects = new Map<string, StripeObject>();
  readonly hidden: Hidden = {
    lineItems: new Map(),
    secrets: new Map(),
    connect: new Map(),
    checkout: new Map(),
  };
  private pending: StripeEvent[] | undefined;

  constructor(
    private readonly sink: EventSink,
    readonly now: () => number = Date.now,
  ) {}

  /** Unix seconds, as every Stripe timestamp. */
  seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  put<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  /** The object `id` of kind `object` (`'customer'`), or Stripe's 404 naming `kind`. */
  get<T extends StripeObject>(object: T['object'], id: string, kind = object, param = 'id'): T {
    const found = this.objects.get(id);
    if (!found || found.object !== object) throw noSuch(kind, id, param);
    return found as T;
  }

  find<T extends StripeObject>(object: T['object'], id: string): T | undefined {
    const found = this.objects.get(id);
    return found?.object === object ? (found as T) : undefined;
  }

  /** Every object of a kind, newest first (Stripe's list order). */
  all<T extends StripeObject>(object: T['object']): T[] {
    return [...this.objects.values()].filter((o): o is T => o.object === object).reverse();
  }

  /**
   * Runs one state change: the events it emits are handed to the deliverer together at the end
   * (so a shuffle can reorder a change's events as Stripe's delivery may), nested calls join the
   * outer change.
   */
  change<T>(fn: () => T): T {
    if (this.pending) return fn();
    const events: StripeEvent[] = [];
    this.pending = events;
    try {
      return fn();
    } finally {
      this.pending = undefined;
      if (events.length > 0) this.sink(events);
    }
  }

  /** Appends an event with a snapshot of `object` now. */
  emit(
    type: string,
    object: StripeObject,
    options: { previous?: Record<string, unknown>; account?: string; request?: StripeEvent['request'] } = {},
  ): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.seconds(),
      data: {
        object: structuredClone(object),
        ...(options.previous ? { previous_attributes: structuredClone(options.previous) } : {}),
      },
      livemode: false,
      pending_webhooks: 0,
      request: options.request ?? { id: null, idempotency_key: null },
      type,
      ...(options.account ? { account: options.account } : {}),
    };
    this.put(event);
    if (this.pending) this.pending.push(event);
    else this.sink([event]);
    return event;
  }
}
