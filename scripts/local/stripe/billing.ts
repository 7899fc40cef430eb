import { invalid, noSuch } from './params.ts';
import {
  type Account,
  type Charge,
  type CheckoutSession,
  type Dispute,
  type Invoice,
  list,
  type Metadata,
  newId,
  type PaymentIntent,
  type Price,
  type StripeObject,
  type Store,
  type Subscription,
  type SubscriptionItem,
} from './store.ts';

/**
 * What happens at Stripe when money moves: a Checkout Session paid or declined, a subscription
 * renewed or its renewal failing and later recovered, refunds, disputes, a connected account
 * finishing onboarding. Each is one `store.change`, emitting the events Stripe emits, in the order
 * it emits them. The card network's side (`npm run pay`, the hosted pages) calls these; so does
 * the API for what a caller can do itself (refund, cancel).
 *
 * Time: a renewal moves the subscription's period on to its next end counted from the billing
 * cycle anchor (`periodEndAfter`), as a test clock advanced to the period's end would; objects and events are stamped with the wall
 * clock (signatures must be fresh), so a renewed period starts in the future of `created`.
 */

/** A conflict with the object's state (a completed session paid again): 409 on the control API. */
export class StateError extends Error {}

const DAY = 86_400;

/** `from` moved on by `count` intervals, calendar-aware like Stripe's billing periods. */
export const addInterval = (from: number, interval: string, count = 1): number => {
  if (interval === 'day') return from + count * DAY;
  if (interval === 'week') return from + count * 7 * DAY;
  const date = new Date(from * 1000);
  const months = interval === 'year' ? 12 * count : count;
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return Math.floor(date.getTime() / 1000);
};

/**
 * The end of a subscription's period that starts at `start`: Stripe counts periods from the
 * billing cycle anchor, so an anchor on the 31st comes back after a short month (Jan 31 → Feb 28
 * → Mar 31), where moving on from the last period's end would drift (→ Mar 28).
 */
export const periodEndAfter = (anchor: number, start: number, interval: string, count = 1): number => {
  for (let periods = 1; ; periods++) {
    const end = addInterval(anchor, interval, periods * count);
    if (end > start) return end;
  }
};

const copy = <T>(value: T): T => structuredClone(value);

/** Creates a customer (`customer.created`). */
export const createCustomer = (
  store: Store,
  fields: { email?: string | null; name?: string | null; metadata?: Metadata; description?: string | null },
): StripeObject =>
  store.change(() => {
    const customer = store.put({
      id: newId('cus'),
      object: 'customer',
      address: null,
      balance: 0,
      created: store.seconds(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: fields.description ?? null,
      email: fields.email ?? null,
      invoice_prefix: newId('x').slice(3, 11).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: fields.metadata ?? {},
      name: fields.name ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    });
    store.emit('customer.created', customer);
    return customer;
  });

/** A card payment method attached to nothing: the card the payer typed on the hosted page. */
const cardPaymentMethod = (store: Store, customer: string | null) =>
  store.put({
    id: newId('pm'),
    object: 'payment_method',
    billing_details: { address: null, email: null, name: null, phone: null },
    card: { brand: 'visa', country: 'US', exp_month: 12, exp_year: 2034, funding: 'credit', last4: '4242' },
    created: store.seconds(),
    customer,
    livemode: false,
    metadata: {},
    type: 'card',
  });

interface Money {
  amount: number;
  currency: string;
  customer: string | null;
  metadata: Metadata;
  description: string | null;
  applicationFeeAmount: number | null;
  destination: string | null;
}

const newPaymentIntent = (store: Store, money: Money): PaymentIntent =>
  store.put<PaymentIntent>({
    id: newId('pi'),
    object: 'payment_intent',
    amount: money.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: money.applicationFeeAmount,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: null,
    confirmation_method: 'automatic',
    created: store.seconds(),
    currency: money.currency,
    customer: money.customer,
    description: money.description,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: money.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_types: ['card'],
    receipt_email: null,
    setup_future_usage: null,
    status: 'requires_payment_method',
    transfer_data: money.destination ? { destination: money.destination } : null,
    transfer_group: null,
  });

const DECLINE = {
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
  type: 'card_error',
};

/**
 * Attempts `intent` with a card: a charge (succeeded or failed), the intent succeeded or back to
 * requires_payment_method with `last_payment_error`. Emits charge.* and payment_intent.*.
 */
const attempt = (store: Store, intent: PaymentIntent, outcome: 'succeeded' | 'declined'): Charge => {
  const paymentMethod = cardPaymentMethod(store, intent.customer);
  const succeeded = outcome === 'succeeded';
  const destination = intent.transfer_data?.destination ?? null;
  const charge = store.put<Charge>({
    id: newId('ch'),
    object: 'charge',
    amount: intent.amount,
    amount_captured: succeeded ? intent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: succeeded && intent.application_fee_amount !== null ? newId('fee') : null,
    application_fee_amount: intent.application_fee_amount,
    balance_transaction: succeeded ? newId('txn') : null,
    billing_details: { address: null, email: null, name: null, phone: null },
    calculated_statement_descriptor: 'CREATOR STREAMING',
    captured: succeeded,
    created: store.seconds(),
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    destination,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: succeeded ? null : DECLINE.code,
    failure_message: succeeded ? null : DECLINE.message,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: succeeded
      ? {
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          seller_message: 'Payment complete.',
          type: 'authorized',
        }
      : {
          network_status: 'declined_by_network',
          reason: 'generic_decline',
          risk_level: 'normal',
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        },
    paid: succeeded,
    payment_intent: intent.id,
    payment_method: paymentMethod.id,
    payment_method_details: {
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
      type: 'card',
    },
    receipt_email: null,
    receipt_url: null,
    refunded: false,
    review: null,
    source_transfer: null,
    statement_descriptor: null,
    status: succeeded ? 'succeeded' : 'failed',
    ...(succeeded && destination ? { transfer: newId('tr') } : {}),
    transfer_data: destination ? { amount: null, destination } : null,
    transfer_group: succeeded && destination ? `group_${intent.id}` : null,
  });
  intent.latest_charge = charge.id;
  intent.payment_method = paymentMethod.id;
  if (succeeded) {
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    store.emit('charge.succeeded', charge);
    store.emit('payment_intent.succeeded', intent);
  } else {
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { ...DECLINE, charge: charge.id, payment_method: copy(paymentMethod) };
    store.emit('charge.failed', charge);
    store.emit('payment_intent.payment_failed', intent);
  }
  return charge;
};

const feeOf = (amount: number, percent: number | null) =>
  percent === null ? null : Math.round((amount * percent) / 100);

/** A subscription's invoice for its current period, finalized (open), with its payment intent. */
const invoiceFor = (
  store: Store,
  subscription: Subscription,
  reason: 'subscription_create' | 'subscription_cycle',
): [Invoice, PaymentIntent] => {
  const item = subscription.items.data[0]!;
  const now = store.seconds();
  const id = newId('in');
  const lines = subscription.items.data.map((si) => ({
    id: newId('il'),
    object: 'line_item',
    amount: si.price.unit_amount * si.quantity,
    currency: si.price.currency,
    description: `${si.quantity} × ${String(si.price.nickname ?? store.find('product', si.price.product)?.name ?? si.price.product)} (at ${(si.price.unit_amount / 100).toFixed(2)} / ${si.price.recurring?.interval})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: {
        subscription: subscription.id,
        subscription_item: si.id,
        proration: false,
        invoice_item: null,
        proration_details: { credited_items: null },
      },
      invoice_item_details: null,
    },
    period: { start: si.current_period_start, end: si.current_period_end },
    pricing: {
      type: 'price_details',
      price_details: { price: si.price.id, product: si.price.product },
      unit_amount_decimal: String(si.price.unit_amount),
    },
    quantity: si.quantity,
    subtotal: si.price.unit_amount * si.quantity,
    taxes: [],
  }));
  const amount = lines.reduce((sum, line) => sum + line.amount, 0);
  const intent = newPaymentIntent(store, {
    amount,
    currency: subscription.currency,
    customer: subscription.customer,
    metadata: {},
    description: reason === 'subscription_create' ? 'Subscription creation' : 'Subscription update',
    applicationFeeAmount: feeOf(amount, subscription.application_fee_percent),
    destination: subscription.transfer_data?.destination ?? null,
  });
  const invoice = store.put<Invoice>({
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Creator Streaming (local)',
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amount,
    amount_shipping: 0,
    application: null,
    application_fee_amount: intent.application_fee_amount,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_reason: reason,
    collection_method: 'charge_automatically',
    created: now,
    currency: subscription.currency,
    customer: subscription.customer,
    customer_email: (store.find('customer', subscription.customer)?.email as string | null) ?? null,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: now,
    ending_balance: 0,
    hosted_invoice_url: null,
    invoice_pdf: null,
    lines: list(`/v1/invoices/${id}/lines`, lines),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `${newId('x').slice(3, 11).toUpperCase()}-0001`,
    on_behalf_of: null,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscription.id, metadata: copy(subscription.metadata) },
      quote_details: null,
    },
    payments: list(`/v1/invoice_payments?invoice=${id}`, []),
    period_end: item.current_period_end,
    period_start: item.current_period_start,
    starting_balance: 0,
    status: 'open',
    status_transitions: { finalized_at: now, paid_at: null, voided_at: null, marked_uncollectible_at: null },
    subtotal: amount,
    test_clock: null,
    total: amount,
    webhooks_delivered_at: null,
  });
  store.put({
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: null,
    amount_requested: amount,
    created: now,
    currency: subscription.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intent.id },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  });
  subscription.latest_invoice = invoice.id;
  return [invoice, intent];
};

const invoicePayment = (store: Store, invoice: Invoice) =>
  store.all('invoice_payment').find((p) => p.invoice === invoice.id && p.is_default)!;

const intentOf = (store: Store, invoice: Invoice): PaymentIntent => {
  const payment = invoicePayment(store, invoice).payment as { payment_intent: string };
  return store.get<PaymentIntent>('payment_intent', payment.payment_intent);
};

/** Charges an open invoice: paid (invoice.paid, invoice.payment_succeeded) or failed (invoice.payment_failed). */
const collect = (store: Store, invoice: Invoice, outcome: 'succeeded' | 'declined'): Charge => {
  const intent = intentOf(store, invoice);
  const charge = attempt(store, intent, outcome);
  const now = store.seconds();
  invoice.attempt_count += 1;
  invoice.attempted = true;
  const payment = invoicePayment(store, invoice);
  if (outcome === 'succeeded') {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = now;
    Object.assign(payment, {
      status: 'paid',
      amount_paid: invoice.amount_due,
      status_transitions: { canceled_at: null, paid_at: now },
    });
    invoice.payments = list(`/v1/invoice_payments?invoice=${invoice.id}`, [copy(payment)]);
    store.emit('invoice.paid', invoice);
    store.emit('invoice.payment_succeeded', invoice);
  } else {
    // Smart Retries' schedule, shortened to a day between attempts; the 4th failure ends it.
    invoice.next_payment_attempt = invoice.attempt_count >= RETRIES ? null : now + DAY;
    store.emit('invoice.payment_failed', invoice);
  }
  return charge;
};

/** Failed renewal attempts before the subscription is canceled (Stripe's default: 4 then cancel). */
export const RETRIES = 4;

const subscriptionItems = (
  store: Store,
  subscription: string,
  prices: Array<{ price: Price; quantity: number }>,
  start: number,
) =>
  prices.map(({ price, quantity }) => {
    const item: SubscriptionItem = {
      id: newId('si'),
      object: 'subscription_item',
      billing_thresholds: null,
      created: store.seconds(),
      current_period_end: addInterval(start, price.recurring!.interval, price.recurring!.interval_count),
      current_period_start: start,
      discounts: [],
      metadata: {},
      plan: planOf(price),
      price: copy(price),
      quantity,
      subscription,
      tax_rates: [],
    };
    return item;
  });

/** The legacy `plan` view of a recurring price, still part of a subscription item. */
const planOf = (price: Price) => ({
  id: price.id,
  object: 'plan',
  active: price.active,
  amount: price.unit_amount,
  amount_decimal: String(price.unit_amount),
  billing_scheme: 'per_unit',
  created: price.created,
  currency: price.currency,
  interval: price.recurring?.interval,
  interval_count: price.recurring?.interval_count,
  livemode: false,
  metadata: price.metadata,
  nickname: price.nickname ?? null,
  product: price.product,
  usage_type: 'licensed',
});

/** The session's line items (`li_`), each with its price. */
export const lineItemsOf = (store: Store, session: CheckoutSession): StripeObject[] =>
  store.hidden.lineItems.get(session.id) ?? [];

/** A payment-mode session's payment intent, made when the payer first submits a card (payment_intent.created). */
const sessionIntent = (store: Store, session: CheckoutSession): PaymentIntent => {
  const plan = store.hidden.checkout.get(session.id)!;
  const intent = newPaymentIntent(store, {
    amount: session.amount_total,
    currency: session.currency,
    customer: session.customer,
    metadata: plan.paymentIntentData.metadata,
    description: plan.paymentIntentData.description,
    applicationFeeAmount: plan.paymentIntentData.applicationFeeAmount,
    destination: plan.paymentIntentData.destination,
  });
  store.emit('payment_intent.created', intent);
  return intent;
};

/** The session's state must be open (not paid, not expired) to be paid or declined. */
const openSession = (store: Store, session: CheckoutSession): void => {
  expireIfDue(store, session);
  if (session.status !== 'open')
    throw new StateError(`checkout session ${session.id} is ${session.status}, not open`);
};

/** Expires an open session whose `expires_at` has passed (checkout.session.expired). */
export const expireIfDue = (store: Store, session: CheckoutSession): void => {
  if (session.status === 'open' && session.expires_at <= store.seconds()) expireSession(store, session);
};

/** Expires an open session now (checkout.session.expired); a paid one cannot be. */
export const expireSession = (store: Store, session: CheckoutSession): CheckoutSession =>
  store.change(() => {
    if (session.status !== 'open')
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        undefined,
        'checkout_session_expired',
      );
    session.status = 'expired';
    session.url = null;
    store.emit('checkout.session.expired', session);
    return session;
  });

/**
 * The payer pays the session with a card that works: in payment mode a payment intent and its
 * charge; in subscription mode a customer (when the session had none), the subscription with
 * its first period, its first invoice paid. Then `checkout.session.completed`.
 */
export const completeCheckout = (
  store: Store,
  session: CheckoutSession,
  payer: { email?: string } = {},
): CheckoutSession =>
  store.change(() => {
    openSession(store, session);
    const plan = store.hidden.checkout.get(session.id)!;
    const email =
      session.customer_email ?? payer.email ?? `payer-${newId('x').slice(3, 9).toLowerCase()}@example.com`;
    const needsCustomer = session.mode === 'subscription' || plan.customerCreation === 'always';
    if (!session.customer && needsCustomer) session.customer = createCustomer(store, { email }).id;
    const items = lineItemsOf(store, session).map((item) => ({
      price: item.price as Price,
      quantity: item.quantity as number,
    }));
    if (session.mode === 'payment') {
      // The intent a declined attempt made, tried again; else a new one.
      const intent = session.payment_intent
        ? store.get<PaymentIntent>('payment_intent', session.payment_intent)
        : sessionIntent(store, session);
      if (session.customer && !intent.customer) intent.customer = session.customer;
      attempt(store, intent, 'succeeded');
      session.payment_intent = intent.id;
    } else {
      const now = store.seconds();
      const id = newId('sub');
      const subscription = store.put<Subscription>({
        id,
        object: 'subscription',
        application: null,
        application_fee_percent: plan.subscriptionData.applicationFeePercent,
        automatic_tax: { disabled_reason: null, enabled: false, liability: null },
        billing_cycle_anchor: now,
        billing_cycle_anchor_config: null,
        billing_mode: { type: 'flexible' },
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        cancellation_details: { comment: null, feedback: null, reason: null },
        collection_method: 'charge_automatically',
        created: now,
        currency: session.currency,
        customer: session.customer!,
        days_until_due: null,
        default_payment_method: null,
        description: null,
        discounts: [],
        ended_at: null,
        invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
        items: list(
          `/v1/subscription_items?subscription=${id}`,
          subscriptionItems(
            store,
            id,
            items.filter((i) => i.price.recurring),
            now,
          ),
        ),
        latest_invoice: null,
        livemode: false,
        metadata: plan.subscriptionData.metadata,
        on_behalf_of: null,
        pause_collection: null,
        payment_settings: {
          payment_method_options: null,
          payment_method_types: null,
          save_default_payment_method: 'off',
        },
        pending_setup_intent: null,
        pending_update: null,
        schedule: null,
        start_date: now,
        status: 'incomplete',
        test_clock: null,
        transfer_data: plan.subscriptionData.destination
          ? { amount_percent: null, destination: plan.subscriptionData.destination }
          : null,
        trial_end: null,
        trial_start: null,
      });
      const [invoice] = invoiceFor(store, subscription, 'subscription_create');
      store.emit('invoice.created', invoice);
      store.emit('invoice.finalized', invoice);
      collect(store, invoice, 'succeeded');
      subscription.status = 'active';
      subscription.default_payment_method = intentOf(store, invoice).payment_method;
      store.emit('customer.subscription.created', subscription);
      session.subscription = subscription.id;
      session.invoice = invoice.id;
    }
    session.status = 'complete';
    session.payment_status = 'paid';
    session.url = null;
    session.customer_details = {
      address: null,
      email,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    store.emit('checkout.session.completed', session);
    return session;
  });

/**
 * The payer's card is declined: the session stays open (the payer may try another card). In
 * payment mode Stripe has made the payment intent and shows its failure
 * (payment_intent.payment_failed, charge.failed); in subscription mode nothing is created.
 */
export const declineCheckout = (store: Store, session: CheckoutSession): CheckoutSession =>
  store.change(() => {
    openSession(store, session);
    if (session.mode === 'payment') {
      const intent = session.payment_intent
        ? store.get<PaymentIntent>('payment_intent', session.payment_intent)
        : sessionIntent(store, session);
      attempt(store, intent, 'declined');
      session.payment_intent = intent.id;
    }
    return session;
  });

const periodOf = (subscription: Subscription) => subscription.items.data[0]!;

/** Ends a subscription now (customer.subscription.deleted). */
const end = (
  store: Store,
  subscription: Subscription,
  reason: 'cancellation_requested' | 'payment_failed',
  endedAt: number,
) => {
  subscription.status = 'canceled';
  subscription.canceled_at ??= store.seconds();
  subscription.ended_at = endedAt;
  subscription.cancellation_details = { comment: null, feedback: null, reason };
  store.emit('customer.subscription.deleted', subscription);
};

/**
 * The subscription reaches the end of its period: one set to cancel at period end ends there
 * (customer.subscription.deleted); any other moves to its next period (customer.subscription.updated)
 * and is invoiced for it, the card charged with `outcome`. Paid: invoice.paid; declined: the
 * invoice stays open, invoice.payment_failed, the subscription past_due.
 */
export const renew = (
  store: Store,
  subscription: Subscription,
  outcome: 'succeeded' | 'declined',
): Subscription =>
  store.change(() => {
    if (subscription.status !== 'active')
      throw new StateError(
        `subscription ${subscription.id} is ${subscription.status}: only an active subscription renews${subscription.status === 'past_due' ? ' (recover pays its open invoice, fail-renewal fails the retry)' : ''}`,
      );
    const item = periodOf(subscription);
    if (subscription.cancel_at_period_end) {
      end(store, subscription, 'cancellation_requested', item.current_period_end);
      return subscription;
    }
    const previous = { items: copy(subscription.items), latest_invoice: subscription.latest_invoice };
    for (const si of subscription.items.data) {
      const interval = si.price.recurring!;
      si.current_period_start = si.current_period_end;
      si.current_period_end = periodEndAfter(
        subscription.billing_cycle_anchor,
        si.current_period_start,
        interval.interval,
        interval.interval_count,
      );
    }
    const [invoice] = invoiceFor(store, subscription, 'subscription_cycle');
    store.emit('customer.subscription.updated', subscription, { previous });
    store.emit('invoice.created', invoice);
    store.emit('invoice.finalized', invoice);
    collect(store, invoice, outcome);
    if (outcome === 'declined') {
      subscription.status = 'past_due';
      store.emit('customer.subscription.updated', subscription, { previous: { status: 'active' } });
    }
    return subscription;
  });

const openInvoice = (store: Store, subscription: Subscription): Invoice => {
  const invoice = subscription.latest_invoice
    ? store.find<Invoice>('invoice', subscription.latest_invoice)
    : undefined;
  if (subscription.status !== 'past_due' || invoice?.status !== 'open')
    throw new StateError(
      `subscription ${subscription.id} is ${subscription.status} with no unpaid renewal: fail-renewal first`,
    );
  return invoice;
};

/** A retry of a past_due subscription's open invoice fails again; the last retry cancels it. */
export const failRetry = (store: Store, subscription: Subscription): Subscription =>
  store.change(() => {
    const invoice = openInvoice(store, subscription);
    collect(store, invoice, 'declined');
    if (invoice.attempt_count >= RETRIES) end(store, subscription, 'payment_failed', store.seconds());
    return subscription;
  });

/** The retried renewal succeeds: the open invoice paid, the subscription active again. */
export const recover = (store: Store, subscription: Subscription): Subscription =>
  store.change(() => {
    const invoice = openInvoice(store, subscription);
    collect(store, invoice, 'succeeded');
    subscription.status = 'active';
    store.emit('customer.subscription.updated', subscription, { previous: { status: 'past_due' } });
    return subscription;
  });

/** Cancels a subscription now, as `DELETE /v1/subscriptions/:id` does. */
export const cancelNow = (store: Store, subscription: Subscription): Subscription =>
  store.change(() => {
    if (subscription.status === 'canceled')
      throw invalid(
        `A canceled subscription can only update its cancellation_details and metadata.`,
        undefined,
        'resource_missing',
      );
    end(store, subscription, 'cancellation_requested', store.seconds());
    return subscription;
  });

/** Sets or clears cancel-at-period-end (customer.subscription.updated when it changes). */
export const setCancelAtPeriodEnd = (
  store: Store,
  subscription: Subscription,
  cancel: boolean,
): Subscription =>
  store.change(() => {
    if (subscription.status === 'canceled')
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    if (subscription.cancel_at_period_end === cancel) return subscription;
    const previous = {
      cancel_at_period_end: subscription.cancel_at_period_end,
      cancel_at: subscription.cancel_at,
      canceled_at: subscription.canceled_at,
      cancellation_details: copy(subscription.cancellation_details),
    };
    subscription.cancel_at_period_end = cancel;
    subscription.cancel_at = cancel ? periodOf(subscription).current_period_end : null;
    subscription.canceled_at = cancel ? store.seconds() : null;
    subscription.cancellation_details = {
      comment: null,
      feedback: null,
      reason: cancel ? 'cancellation_requested' : null,
    };
    store.emit('customer.subscription.updated', subscription, { previous });
    return subscription;
  });

/**
 * Refunds `amount` (default: what is left) of a charge: a refund, charge.refunded, refund.created.
 * `reverseTransfer` (a destination charge's `reverse_transfer`) names a transfer reversal on the refund.
 */
export const refundCharge = (
  store: Store,
  charge: Charge,
  options: {
    amount?: number;
    reason?: string | null;
    metadata?: Metadata;
    reverseTransfer?: boolean;
    refundApplicationFee?: boolean;
  } = {},
): StripeObject =>
  store.change(() => {
    if (charge.status !== 'succeeded')
      throw invalid(`Charge ${charge.id} has not succeeded; it cannot be refunded.`, 'charge');
    const left = charge.amount - charge.amount_refunded;
    if (left <= 0)
      throw invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const amount = options.amount ?? left;
    if (amount <= 0) throw invalid('Refund amount must be positive', 'amount');
    if (amount > left)
      throw invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount',
        'amount_too_large',
      );
    const refund = store.put({
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: newId('txn'),
      charge: charge.id,
      created: store.seconds(),
      currency: charge.currency,
      customer: charge.customer,
      destination_details: { card: { type: 'refund' }, type: 'card' },
      metadata: options.metadata ?? {},
      payment_intent: charge.payment_intent,
      payment_method: charge.payment_method,
      reason: options.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      // A destination charge's transfer reversed in proportion (`reverse_transfer`): its reversal's
      // id (the stand-in keeps no transfer objects, as for `tr_` and `fee_`).
      transfer_reversal: options.reverseTransfer && charge.transfer ? newId('trr') : null,
    });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    store.emit('charge.refunded', charge, { previous });
    store.emit('refund.created', refund);
    return refund;
  });

/** The cardholder disputes a charge: a dispute needing a response, the funds withdrawn. */
export const openDispute = (store: Store, charge: Charge): Dispute =>
  store.change(() => {
    if (charge.status !== 'succeeded')
      throw new StateError(`charge ${charge.id} did not succeed: nothing to dispute`);
    if (charge.disputed) throw new StateError(`charge ${charge.id} is already disputed`);
    const now = store.seconds();
    const dispute = store.put<Dispute>({
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount,
      balance_transactions: [],
      charge: charge.id,
      created: now,
      currency: charge.currency,
      evidence: {},
      evidence_details: { due_by: now + 7 * DAY, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
    });
    charge.disputed = true;
    store.emit('charge.dispute.created', dispute);
    store.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  });

/** The dispute closes: won (funds reinstated) or lost. */
export const closeDispute = (store: Store, dispute: Dispute, outcome: 'won' | 'lost'): Dispute =>
  store.change(() => {
    if (dispute.status === 'won' || dispute.status === 'lost')
      throw new StateError(`dispute ${dispute.id} is already closed (${dispute.status})`);
    const previous = { status: dispute.status };
    dispute.status = outcome;
    store.emit('charge.dispute.closed', dispute, { previous });
    if (outcome === 'won') store.emit('charge.dispute.funds_reinstated', dispute);
    return dispute;
  });

/** The connected account finishes onboarding: charges and payouts enabled (account.updated, Connect). */
export const completeOnboarding = (store: Store, account: Account): Account =>
  store.change(() => {
    if (account.charges_enabled && account.payouts_enabled && account.details_submitted) return account;
    const previous = {
      charges_enabled: account.charges_enabled,
      payouts_enabled: account.payouts_enabled,
      details_submitted: account.details_submitted,
      capabilities: copy(account.capabilities),
      requirements: copy(account.requirements),
    };
    account.charges_enabled = true;
    account.payouts_enabled = true;
    account.details_submitted = true;
    account.capabilities = { card_payments: 'active', transfers: 'active' };
    account.requirements = {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    };
    store.emit('account.updated', account, { previous, account: account.id });
    return account;
  });

/** The charge a refund or dispute of `id` means: a charge, a payment intent's, a session's or a subscription's latest paid one. */
export const chargeOf = (store: Store, id: string): Charge => {
  const fromIntent = (intentId: string | null) => {
    const intent = intentId ? store.find<PaymentIntent>('payment_intent', intentId) : undefined;
    const charge = intent?.latest_charge ? store.find<Charge>('charge', intent.latest_charge) : undefined;
    if (charge?.status === 'succeeded') return charge;
    throw new StateError(`${id} has no successful charge`);
  };
  const fromSubscription = (subscription: Subscription) => {
    const paid = store
      .all<Invoice>('invoice')
      .find(
        (invoice) =>
          invoice.parent?.subscription_details.subscription === subscription.id && invoice.status === 'paid',
      );
    if (!paid) throw new StateError(`subscription ${subscription.id} has no paid invoice`);
    return fromIntent(intentOf(store, paid).id);
  };
  const object = store.objects.get(id);
  if (!object) throw noSuch('object', id);
  if (object.object === 'charge') return object as Charge;
  if (object.object === 'payment_intent') return fromIntent(object.id);
  if (object.object === 'invoice') return fromIntent(intentOf(store, object as Invoice).id);
  if (object.object === 'subscription') return fromSubscription(object as Subscription);
  if (object.object === 'checkout.session') {
    const session = object as CheckoutSession;
    if (session.status !== 'complete')
      throw new StateError(`checkout session ${id} is ${session.status}, not paid`);
    if (session.payment_intent) return fromIntent(session.payment_intent);
    return fromSubscription(store.get<Subscription>('subscription', session.subscription!));
  }
  throw new StateError(
    `${id} is a ${object.object}: give a checkout session, subscription, invoice, payment intent or charge`,
  );
};

/** The subscription `id` means: a subscription, or a completed subscription-mode session's. */
export const subscriptionOf = (store: Store, id: string): Subscription => {
  const object = store.objects.get(id);
  if (!object) throw noSuch('object', id);
  if (object.object === 'subscription') return object as Subscription;
  if (object.object === 'checkout.session') {
    const session = object as CheckoutSession;
    if (session.mode !== 'subscription')
      throw new StateError(`checkout session ${id} is a one-time payment, not a subscription`);
    if (!session.subscription)
      throw new StateError(`checkout session ${id} is ${session.status}: complete it first`);
    return store.get<Subscription>('subscription', session.subscription);
  }
  throw new StateError(`${id} is a ${object.object}: give a checkout session or subscription`);
};

/** The latest dispute of the charge `id` means. */
export const disputeOf = (store: Store, id: string): Dispute => {
  const object = store.objects.get(id);
  if (object?.object === 'dispute') return object as Dispute;
  const charge = chargeOf(store, id);
  const dispute = store.all<Dispute>('dispute').find((d) => d.charge === charge.id);
  if (!dispute) throw new StateError(`charge ${charge.id} has no dispute: dispute it first`);
  return dispute;
};
