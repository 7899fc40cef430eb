import { randomBytes } from 'node:crypto';
import {
  cancelNow,
  createCustomer,
  expireIfDue,
  expireSession,
  lineItemsOf,
  refundCharge,
  setCancelAtPeriodEnd,
} from './billing.ts';
import { invalid, type Params } from './params.ts';
import {
  type Account,
  API_VERSION,
  type Charge,
  type CheckoutPlan,
  type CheckoutSession,
  type Dispute,
  list,
  newId,
  type PaymentIntent,
  type Price,
  type Store,
  type StripeEvent,
  type StripeObject,
  type Subscription,
  type WebhookEndpoint,
} from './store.ts';

/**
 * The Stripe API resources the platform uses, as a route table: method, path pattern and a
 * function of the store, the request's parameters and the path's ids that answers the object.
 * Only the parameters the platform sends (and their errors) are modelled; docs/local-stripe.md
 * lists what the stand-in serves and what it leaves out.
 */

export interface Context {
  store: Store;
  /** The stand-in's own base URL (hosted pages live there). */
  base: string;
  requestId: string;
  idempotencyKey: string | null;
}

type Handler = (ctx: Context, params: Params, ids: string[]) => unknown;
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  handler: Handler;
}

const ID = '([A-Za-z0-9_]+)';
const route = (method: Route['method'], path: string, handler: Handler): Route => ({
  method,
  pattern: new RegExp(`^${path.replaceAll(':id', ID)}$`),
  handler,
});

// ── lists and searches ───────────────────────────────────────────────────────────────────────

/** Stripe's cursor pagination over `items` (newest first): limit, starting_after, ending_before. */
const page = <T extends StripeObject>(url: string, items: T[], params: Params) => {
  const limit = params.integer('limit') ?? 10;
  if (limit < 1 || limit > 100)
    throw invalid(`This value must be less than or equal to 100 (it currently is ${limit}).`, 'limit');
  const after = params.string('starting_after');
  const before = params.string('ending_before');
  let window = items;
  if (after) {
    const at = items.findIndex((item) => item.id === after);
    window = at < 0 ? [] : items.slice(at + 1);
  } else if (before) {
    const at = items.findIndex((item) => item.id === before);
    window = at < 0 ? [] : items.slice(Math.max(0, at - limit), at);
    return list(url, window, at - limit > 0);
  }
  return list(url, window.slice(0, limit), window.length > limit);
};

/** `created` as an exact time or a range (`created[gte]=...`). */
const createdFilter = (params: Params) => {
  if (typeof params.form.created === 'string') {
    const exact = params.integer('created');
    return (created: number) => created === exact;
  }
  const range = params.object('created');
  if (!range) return () => true;
  const gte = range.integer('gte');
  const gt = range.integer('gt');
  const lte = range.integer('lte');
  const lt = range.integer('lt');
  return (created: number) =>
    (gte === undefined || created >= gte) &&
    (gt === undefined || created > gt) &&
    (lte === undefined || created <= lte) &&
    (lt === undefined || created < lt);
};

/** Filters on plain fields (`customer=cus_...`), each applied when the parameter is present. */
const where = <T extends StripeObject>(items: T[], params: Params, fields: string[]) => {
  const created = createdFilter(params);
  return items.filter(
    (item) =>
      created(item.created) &&
      fields.every((field) => {
        const wanted = params.string(field);
        return wanted === undefined || String(item[field]) === wanted;
      }),
  );
};

/**
 * Stripe's search query language, the part one uses to find by a field or a metadata key:
 * `email:'a@b.c'`, `metadata['creator_id']:'cr_1'`, `status:'active'`, joined with AND or OR.
 */
const searchMatcher = (query: string) => {
  const clause = /(metadata\['([^']+)'\]|[a-z_]+)\s*(:|~)\s*'((?:[^'\\]|\\.)*)'/g;
  const clauses = [...query.matchAll(clause)].map((m) => ({
    field: m[1]!,
    key: m[2],
    op: m[3]!,
    value: m[4]!.replace(/\\'/g, "'"),
  }));
  if (clauses.length === 0) throw invalid(`Invalid query: ${query}`, 'query', 'parameter_invalid_string');
  const or = /\bOR\b/.test(query);
  return (item: StripeObject) => {
    const test = ({ field, key, op, value }: (typeof clauses)[number]) => {
      const actual =
        key !== undefined ? (item.metadata as Record<string, string> | undefined)?.[key] : item[field];
      if (actual === undefined || actual === null) return false;
      return op === '~' ? String(actual).includes(value) : String(actual) === value;
    };
    return or ? clauses.some(test) : clauses.every(test);
  };
};

const search = (object: string, url: string) => (ctx: Context, params: Params) => {
  const matches = ctx.store.all(object).filter(searchMatcher(params.required('query')));
  const limit = params.integer('limit') ?? 10;
  return {
    object: 'search_result',
    data: matches.slice(0, limit),
    has_more: matches.length > limit,
    next_page: null,
    url,
  };
};

// ── customers, products, prices ─────────────────────────────────────────────────────────────

const customerFields = (params: Params) => ({
  email: params.string('email'),
  name: params.string('name'),
  description: params.string('description'),
});

const createProduct = (store: Store, params: Params): StripeObject => {
  const now = store.seconds();
  const product = store.put({
    id: params.string('id') ?? newId('prod'),
    object: 'product',
    active: params.boolean('active') ?? true,
    created: now,
    default_price: null,
    description: params.string('description') ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: params.metadata(),
    name: params.required('name'),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: now,
    url: null,
  });
  store.emit('product.created', product);
  return product;
};

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

/** A price from `price` parameters (also `line_items[].price_data`): an existing product or `product_data`. */
const createPrice = (store: Store, params: Params, inline = false): Price =>
  store.change(() => {
    const currency = params.required('currency').toLowerCase();
    const unitAmount = params.integer('unit_amount');
    if (unitAmount === undefined)
      throw invalid('Missing required param: unit_amount.', 'unit_amount', 'parameter_missing');
    if (unitAmount < 0) throw invalid('This value must be greater than or equal to 0.', 'unit_amount');
    const productData = params.object('product_data');
    const productId = params.string('product');
    if (!productId && !productData)
      throw invalid('Missing required param: product.', 'product', 'parameter_missing');
    const product = productId
      ? store.get('product', productId, 'product', 'product').id
      : createProduct(store, productData!).id;
    const recurring = params.object('recurring');
    const lookupKey = params.string('lookup_key') ?? null;
    if (lookupKey) {
      const holder = store.all<Price>('price').find((p) => p.lookup_key === lookupKey);
      if (holder && params.boolean('transfer_lookup_key')) holder.lookup_key = null;
      else if (holder)
        throw invalid(
          `A price (\`${holder.id}\`) already uses that lookup key.`,
          'lookup_key',
          'lookup_key_already_exists',
        );
    }
    const price = store.put<Price>({
      id: newId('price'),
      object: 'price',
      active: inline ? false : (params.boolean('active') ?? true),
      billing_scheme: 'per_unit',
      created: store.seconds(),
      currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: lookupKey,
      metadata: params.metadata(),
      nickname: params.string('nickname') ?? null,
      product,
      recurring: recurring
        ? {
            interval: recurring.oneOf('interval', INTERVALS) ?? (recurring.required('interval') as never),
            interval_count: recurring.integer('interval_count') ?? 1,
            meter: null,
            usage_type: 'licensed' as const,
          }
        : null,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
    });
    if (!inline) store.emit('price.created', price);
    return price;
  });

const updated = (store: Store, type: string, object: StripeObject, change: () => void) => {
  const before = structuredClone(object);
  change();
  const previous = Object.fromEntries(
    Object.keys(object)
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(object[key]))
      .map((key) => [key, before[key] ?? null]),
  );
  if (Object.keys(previous).length > 0) store.emit(type, object, { previous });
  return object;
};

// ── checkout sessions ───────────────────────────────────────────────────────────────────────

const connectDestination = (store: Store, destination: string | undefined, param: string) => {
  if (!destination) return null;
  const account = store.find<Account>('account', destination);
  if (!account) throw invalid(`No such destination: '${destination}'`, param, 'resource_missing');
  const capabilities = (account.capabilities ?? {}) as Record<string, string>;
  if (capabilities.transfers !== 'active')
    throw invalid(
      'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
      param,
      'insufficient_capabilities_for_transfer',
    );
  return account.id;
};

const createSession = (ctx: Context, params: Params): CheckoutSession => {
  const { store } = ctx;
  const mode = params.oneOf('mode', ['payment', 'subscription', 'setup'] as const);
  if (!mode) throw invalid('Missing required param: mode.', 'mode', 'parameter_missing');
  if (mode === 'setup') throw invalid('The stand-in serves payment and subscription mode only.', 'mode');
  const customer = params.string('customer');
  const customerEmail = params.string('customer_email');
  if (customer && customerEmail)
    throw invalid(
      'You may only specify one of these parameters: customer, customer_email.',
      'customer_email',
    );
  if (customer) store.get('customer', customer, 'customer', 'customer');
  const lineParams = params.array('line_items');
  if (lineParams.length === 0)
    throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
  const subscriptionData = params.object('subscription_data');
  const paymentIntentData = params.object('payment_intent_data');
  if (mode === 'subscription' && paymentIntentData)
    throw invalid('You can not pass `payment_intent_data` in `subscription` mode.', 'payment_intent_data');
  if (mode === 'payment' && subscriptionData)
    throw invalid('You can not pass `subscription_data` in `payment` mode.', 'subscription_data');
  return store.change(() => {
    const id = newId('cs');
    const items = lineParams.map((line, i) => {
      const priceId = line.string('price');
      const priceData = line.object('price_data');
      if (!priceId && !priceData)
        throw invalid(
          `You must specify either \`price\` or \`price_data\` in line_items[${i}].`,
          `line_items[${i}]`,
        );
      const price = priceId
        ? store.get<Price>('price', priceId, 'price', `line_items[${i}][price]`)
        : createPrice(store, priceData!, true);
      if (priceId && !price.active)
        throw invalid(
          `The price specified is inactive. This field only accepts active prices.`,
          `line_items[${i}][price]`,
        );
      const quantity = line.integer('quantity');
      if (quantity === undefined)
        throw invalid(
          `Quantity is required. Add \`quantity\` to \`line_items[${i}]\``,
          `line_items[${i}][quantity]`,
          'parameter_missing',
        );
      if (mode === 'payment' && price.recurring)
        throw invalid(
          'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
          `line_items[${i}]`,
        );
      const product = store.find('product', price.product);
      const amount = price.unit_amount * quantity;
      return {
        id: newId('li'),
        object: 'item',
        adjustable_quantity: null,
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        created: store.seconds(),
        currency: price.currency,
        description: (product?.name as string | undefined) ?? null,
        metadata: {},
        price: structuredClone(price),
        quantity,
      };
    });
    if (mode === 'subscription' && !items.some((item) => item.price.recurring))
      throw invalid(
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      );
    const currency = items[0]!.currency;
    if (items.some((item) => item.currency !== currency))
      throw invalid('All prices must use the same currency.', 'line_items');
    const total = items.reduce((sum, item) => sum + item.amount_total, 0);
    const feePercent = subscriptionData?.decimal('application_fee_percent') ?? null;
    const feeAmount = paymentIntentData?.integer('application_fee_amount') ?? null;
    const subscriptionDestination = connectDestination(
      store,
      subscriptionData?.object('transfer_data')?.required('destination'),
      'subscription_data[transfer_data][destination]',
    );
    const paymentDestination = connectDestination(
      store,
      paymentIntentData?.object('transfer_data')?.required('destination'),
      'payment_intent_data[transfer_data][destination]',
    );
    if (feePercent !== null && (feePercent < 0 || feePercent > 100))
      throw invalid(
        'application_fee_percent must be between 0 and 100.',
        'subscription_data[application_fee_percent]',
      );
    if (feePercent !== null && !subscriptionDestination)
      throw invalid(
        'Can only apply an application_fee_percent when the request is made on behalf of another account (using an OAuth key, the Stripe-Account header, or the on_behalf_of or transfer_data[destination] parameters).',
        'subscription_data[application_fee_percent]',
      );
    if (feeAmount !== null && !paymentDestination)
      throw invalid(
        'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
        'payment_intent_data[application_fee_amount]',
      );
    if (feeAmount !== null && (feeAmount < 0 || feeAmount > total))
      throw invalid(
        'The application fee amount must not exceed the amount of the payment.',
        'payment_intent_data[application_fee_amount]',
      );
    const now = store.seconds();
    const expiresAt = params.integer('expires_at') ?? now + 86_400;
    if (expiresAt < now + 1_800 || expiresAt > now + 86_400)
      throw invalid(
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    const plan: CheckoutPlan = {
      subscriptionData: {
        metadata: subscriptionData?.metadata() ?? {},
        applicationFeePercent: feePercent,
        destination: subscriptionDestination,
      },
      paymentIntentData: {
        metadata: paymentIntentData?.metadata() ?? {},
        applicationFeeAmount: feeAmount,
        destination: paymentDestination,
        description: paymentIntentData?.string('description') ?? null,
      },
      customerCreation:
        params.oneOf('customer_creation', ['always', 'if_required'] as const) ?? 'if_required',
    };
    const session = store.put<CheckoutSession>({
      id,
      object: 'checkout.session',
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: params.string('cancel_url') ?? null,
      client_reference_id: params.string('client_reference_id') ?? null,
      client_secret: null,
      consent: null,
      consent_collection: null,
      created: now,
      currency,
      custom_fields: [],
      custom_text: {
        after_submit: null,
        shipping_address: null,
        submit: null,
        terms_of_service_acceptance: null,
      },
      customer: customer ?? null,
      customer_creation: customer ? null : plan.customerCreation,
      customer_details: customerEmail
        ? { address: null, email: customerEmail, name: null, phone: null, tax_exempt: 'none', tax_ids: null }
        : null,
      customer_email: customerEmail ?? null,
      discounts: [],
      expires_at: expiresAt,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: null,
      metadata: params.metadata(),
      mode,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'always',
      payment_method_options: {},
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: params.string('success_url') ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${ctx.base}/c/pay/${id}`,
    });
    store.hidden.lineItems.set(id, items);
    store.hidden.checkout.set(id, plan);
    return session;
  });
};

const session = (ctx: Context, id: string) => {
  const found = ctx.store.get<CheckoutSession>('checkout.session', id, 'checkout.session');
  expireIfDue(ctx.store, found);
  return found;
};

// ── Connect ─────────────────────────────────────────────────────────────────────────────────

const ONBOARDING_DUE = [
  'business_type',
  'external_account',
  'individual.first_name',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

const createAccount = (ctx: Context, params: Params): Account => {
  const type = params.oneOf('type', ['express', 'standard', 'custom'] as const) ?? 'express';
  const country = (params.string('country') ?? 'US').toUpperCase();
  const requested = params.object('capabilities');
  const capabilities = Object.fromEntries(
    ['card_payments', 'transfers']
      .filter((name) => (requested ? requested.object(name)?.boolean('requested') : type === 'express'))
      .map((name) => [name, 'inactive']),
  );
  return ctx.store.put<Account>({
    id: newId('acct'),
    object: 'account',
    business_profile: { mcc: null, name: null, product_description: null, support_email: null, url: null },
    business_type: params.string('business_type') ?? null,
    capabilities,
    charges_enabled: false,
    controller: {
      type: 'application',
      is_controller: true,
      requirement_collection: 'stripe',
      stripe_dashboard: { type },
    },
    country,
    created: ctx.store.seconds(),
    default_currency: country === 'US' ? 'usd' : country === 'GB' ? 'gbp' : 'eur',
    details_submitted: false,
    email: params.string('email') ?? null,
    external_accounts: list(`/v1/accounts/x/external_accounts`, []),
    future_requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    },
    metadata: params.metadata(),
    payouts_enabled: false,
    requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: ONBOARDING_DUE,
      disabled_reason: 'requirements.past_due',
      errors: [],
      eventually_due: ONBOARDING_DUE,
      past_due: ONBOARDING_DUE,
      pending_verification: [],
    },
    settings: {},
    tos_acceptance: { date: null, ip: null, user_agent: null },
    type,
  });
};

/** An onboarding link: one token per link, valid for 5 minutes (Stripe's), until used to finish. */
export interface AccountLinkGrant {
  account: string;
  returnUrl: string;
  refreshUrl: string;
  expiresAt: number;
}
export const accountLinks = new WeakMap<Store, Map<string, AccountLinkGrant>>();

const createAccountLink = (ctx: Context, params: Params) => {
  const account = ctx.store.get<Account>('account', params.required('account'), 'account', 'account');
  const type = params.oneOf('type', ['account_onboarding', 'account_update'] as const);
  if (!type) throw invalid('Missing required param: type.', 'type', 'parameter_missing');
  const returnUrl = params.required('return_url');
  const refreshUrl = params.string('refresh_url') ?? returnUrl;
  const token = randomBytes(16).toString('hex');
  const now = ctx.store.seconds();
  const links = accountLinks.get(ctx.store) ?? new Map<string, AccountLinkGrant>();
  accountLinks.set(ctx.store, links);
  links.set(token, { account: account.id, returnUrl, refreshUrl, expiresAt: now + 300 });
  return {
    object: 'account_link',
    created: now,
    expires_at: now + 300,
    url: `${ctx.base}/connect/onboarding/${token}`,
  };
};

// ── webhook endpoints and events ────────────────────────────────────────────────────────────

const createWebhookEndpoint = (ctx: Context, params: Params): WebhookEndpoint => {
  const url = params.required('url');
  try {
    new URL(url);
  } catch {
    throw invalid('Invalid URL: An explicit scheme (such as https) must be provided.', 'url', 'url_invalid');
  }
  const enabled = params.strings('enabled_events');
  if (enabled.length === 0)
    throw invalid('Missing required param: enabled_events.', 'enabled_events', 'parameter_missing');
  const endpoint = ctx.store.put<WebhookEndpoint>({
    id: newId('we'),
    object: 'webhook_endpoint',
    api_version: params.string('api_version') ?? API_VERSION,
    application: null,
    created: ctx.store.seconds(),
    description: params.string('description') ?? null,
    enabled_events: enabled,
    livemode: false,
    metadata: params.metadata(),
    status: 'enabled',
    url,
  });
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  ctx.store.hidden.secrets.set(endpoint.id, secret);
  ctx.store.hidden.connect.set(endpoint.id, params.boolean('connect') ?? false);
  return { ...endpoint, secret };
};

const listEvents = (ctx: Context, params: Params) => {
  const types = params.strings('types');
  const type = params.string('type');
  const matchesType = (event: StripeEvent) =>
    (types.length === 0 || types.includes(event.type)) &&
    (!type || (type.endsWith('*') ? event.type.startsWith(type.slice(0, -1)) : event.type === type));
  return page(
    '/v1/events',
    where(ctx.store.all<StripeEvent>('event'), params, []).filter(matchesType),
    params,
  );
};

// ── the table ───────────────────────────────────────────────────────────────────────────────

const listOf = (object: string, url: string, fields: string[]) => (ctx: Context, params: Params) =>
  page(url, where(ctx.store.all(object), params, fields), params);
const retrieve =
  (object: string) =>
  (ctx: Context, _params: Params, [id]: string[]) =>
    ctx.store.get(object, id!);

export const ROUTES: Route[] = [
  route('POST', '/v1/customers', ({ store }, params) =>
    createCustomer(store, { ...customerFields(params), metadata: params.metadata() }),
  ),
  route('GET', '/v1/customers', listOf('customer', '/v1/customers', ['email'])),
  route('GET', '/v1/customers/search', search('customer', '/v1/customers/search')),
  route('GET', '/v1/customers/:id', retrieve('customer')),
  route('POST', '/v1/customers/:id', ({ store }, params, [id]) => {
    const customer = store.get('customer', id!);
    return store.change(() =>
      updated(store, 'customer.updated', customer, () => {
        for (const [key, value] of Object.entries(customerFields(params)))
          if (value !== undefined) customer[key] = value || null;
        customer.metadata = params.metadata(customer.metadata as Record<string, string>);
      }),
    );
  }),
  route('DELETE', '/v1/customers/:id', ({ store }, _params, [id]) => {
    const customer = store.get('customer', id!);
    store.objects.delete(customer.id);
    store.emit('customer.deleted', customer);
    return { id: customer.id, object: 'customer', deleted: true };
  }),

  route('POST', '/v1/products', ({ store }, params) => store.change(() => createProduct(store, params))),
  route('GET', '/v1/products', listOf('product', '/v1/products', ['active'])),
  route('GET', '/v1/products/search', search('product', '/v1/products/search')),
  route('GET', '/v1/products/:id', retrieve('product')),
  route('POST', '/v1/products/:id', ({ store }, params, [id]) => {
    const product = store.get('product', id!);
    return store.change(() =>
      updated(store, 'product.updated', product, () => {
        product.name = params.string('name') ?? product.name;
        product.active = params.boolean('active') ?? product.active;
        product.description = params.string('description') ?? product.description;
        product.default_price = params.string('default_price') ?? product.default_price;
        product.metadata = params.metadata(product.metadata as Record<string, string>);
        product.updated = store.seconds();
      }),
    );
  }),

  route('POST', '/v1/prices', ({ store }, params) => createPrice(store, params)),
  route('GET', '/v1/prices', (ctx, params) => {
    const lookupKeys = params.strings('lookup_keys');
    const interval = params.object('recurring')?.string('interval');
    const prices = where(ctx.store.all<Price>('price'), params, [
      'product',
      'active',
      'type',
      'currency',
    ]).filter(
      (price) =>
        (lookupKeys.length === 0 || lookupKeys.includes(String(price.lookup_key))) &&
        (!interval || price.recurring?.interval === interval),
    );
    return page('/v1/prices', prices, params);
  }),
  route('GET', '/v1/prices/search', search('price', '/v1/prices/search')),
  route('GET', '/v1/prices/:id', retrieve('price')),
  route('POST', '/v1/prices/:id', ({ store }, params, [id]) => {
    const price = store.get<Price>('price', id!);
    return store.change(() =>
      updated(store, 'price.updated', price, () => {
        price.active = params.boolean('active') ?? price.active;
        price.nickname = params.string('nickname') ?? price.nickname;
        price.lookup_key = params.string('lookup_key') ?? price.lookup_key;
        price.metadata = params.metadata(price.metadata);
      }),
    );
  }),

  route('POST', '/v1/checkout/sessions', createSession),
  route('GET', '/v1/checkout/sessions', (ctx, params) => {
    const sessions = ctx.store.all<CheckoutSession>('checkout.session');
    for (const s of sessions) expireIfDue(ctx.store, s);
    return page(
      '/v1/checkout/sessions',
      where(sessions, params, [
        'customer',
        'payment_intent',
        'subscription',
        'status',
        'client_reference_id',
      ]),
      params,
    );
  }),
  route('GET', '/v1/checkout/sessions/:id', (ctx, _params, [id]) => session(ctx, id!)),
  route('GET', '/v1/checkout/sessions/:id/line_items', (ctx, params, [id]) =>
    page(`/v1/checkout/sessions/${id}/line_items`, lineItemsOf(ctx.store, session(ctx, id!)), params),
  ),
  route('POST', '/v1/checkout/sessions/:id/expire', (ctx, _params, [id]) =>
    expireSession(ctx.store, session(ctx, id!)),
  ),

  route('GET', '/v1/subscriptions', (ctx, params) => {
    const status = params.string('status');
    const price = params.string('price');
    const subscriptions = where(ctx.store.all<Subscription>('subscription'), params, ['customer']).filter(
      (sub) =>
        (status === 'all' ||
          (status
            ? sub.status === status
            : sub.status !== 'canceled' && sub.status !== 'incomplete_expired')) &&
        (!price || sub.items.data.some((item) => item.price.id === price)),
    );
    return page('/v1/subscriptions', subscriptions, params);
  }),
  route('GET', '/v1/subscriptions/search', search('subscription', '/v1/subscriptions/search')),
  route('GET', '/v1/subscriptions/:id', retrieve('subscription')),
  route('POST', '/v1/subscriptions/:id', ({ store }, params, [id]) => {
    const subscription = store.get<Subscription>('subscription', id!);
    return store.change(() => {
      const cancel = params.boolean('cancel_at_period_end');
      if (cancel !== undefined) setCancelAtPeriodEnd(store, subscription, cancel);
      if (params.has('metadata'))
        updated(store, 'customer.subscription.updated', subscription, () => {
          subscription.metadata = params.metadata(subscription.metadata);
        });
      return subscription;
    });
  }),
  route('DELETE', '/v1/subscriptions/:id', ({ store }, _params, [id]) =>
    cancelNow(store, store.get<Subscription>('subscription', id!)),
  ),

  route('GET', '/v1/invoices', (ctx, params) => {
    const subscription = params.string('subscription');
    const invoices = where(ctx.store.all('invoice'), params, ['customer', 'status']).filter(
      (invoice) =>
        !subscription ||
        (invoice.parent as { subscription_details?: { subscription: string } } | null)?.subscription_details
          ?.subscription === subscription,
    );
    return page('/v1/invoices', invoices, params);
  }),
  route('GET', '/v1/invoices/:id', retrieve('invoice')),
  route('GET', '/v1/invoice_payments', (ctx, params) => {
    const payment = params.object('payment');
    const intent = payment?.string('payment_intent');
    const payments = where(ctx.store.all('invoice_payment'), params, ['invoice', 'status']).filter(
      (p) => !intent || (p.payment as { payment_intent?: string }).payment_intent === intent,
    );
    return page('/v1/invoice_payments', payments, params);
  }),
  route('GET', '/v1/invoice_payments/:id', retrieve('invoice_payment')),

  route('GET', '/v1/payment_intents', listOf('payment_intent', '/v1/payment_intents', ['customer'])),
  route('GET', '/v1/payment_intents/search', search('payment_intent', '/v1/payment_intents/search')),
  route('GET', '/v1/payment_intents/:id', retrieve('payment_intent')),
  route('POST', '/v1/payment_intents/:id', ({ store }, params, [id]) => {
    const intent = store.get<PaymentIntent>('payment_intent', id!);
    return store.change(() => {
      // Metadata only: the stand-in's payments change through `npm run pay`, not this call.
      if (params.has('metadata'))
        intent.metadata = params.metadata(intent.metadata as Record<string, string>);
      return intent;
    });
  }),
  route('GET', '/v1/charges', listOf('charge', '/v1/charges', ['customer', 'payment_intent'])),
  route('GET', '/v1/charges/search', search('charge', '/v1/charges/search')),
  route('GET', '/v1/charges/:id', retrieve('charge')),
  route('GET', '/v1/payment_methods/:id', retrieve('payment_method')),

  route('POST', '/v1/refunds', ({ store }, params) => {
    const chargeId = params.string('charge');
    const intentId = params.string('payment_intent');
    if (!chargeId && !intentId)
      throw invalid(
        'One of the following params should be provided for this request: payment_intent or charge.',
        undefined,
        'parameter_missing',
      );
    let charge: Charge;
    if (chargeId) charge = store.get<Charge>('charge', chargeId, 'charge', 'charge');
    else {
      const intent = store.get<PaymentIntent>(
        'payment_intent',
        intentId!,
        'payment_intent',
        'payment_intent',
      );
      if (!intent.latest_charge || intent.status !== 'succeeded')
        throw invalid(
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'payment_intent',
        );
      charge = store.get<Charge>('charge', intent.latest_charge);
    }
    return refundCharge(store, charge, {
      amount: params.integer('amount'),
      reason: params.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null,
      metadata: params.metadata(),
      reverseTransfer: params.boolean('reverse_transfer'),
      // Read (a non-boolean is Stripe's 400); the stand-in keeps no application fee objects to refund.
      refundApplicationFee: params.boolean('refund_application_fee'),
    });
  }),
  route('GET', '/v1/refunds', listOf('refund', '/v1/refunds', ['charge', 'payment_intent'])),
  route('GET', '/v1/refunds/:id', retrieve('refund')),
  route('GET', '/v1/disputes', listOf('dispute', '/v1/disputes', ['charge', 'payment_intent'])),
  route('GET', '/v1/disputes/:id', retrieve('dispute')),
  route('POST', '/v1/disputes/:id', ({ store }, params, [id]) => {
    const dispute = store.get<Dispute>('dispute', id!);
    dispute.metadata = params.metadata(dispute.metadata as Record<string, string>);
    return dispute;
  }),

  route('POST', '/v1/accounts', createAccount),
  route('GET', '/v1/accounts', listOf('account', '/v1/accounts', [])),
  route('GET', '/v1/accounts/:id', retrieve('account')),
  route('POST', '/v1/accounts/:id', ({ store }, params, [id]) => {
    const account = store.get<Account>('account', id!);
    return store.change(() =>
      updated(store, 'account.updated', account, () => {
        account.email = params.string('email') ?? account.email;
        account.metadata = params.metadata(account.metadata);
      }),
    );
  }),
  route('DELETE', '/v1/accounts/:id', ({ store }, _params, [id]) => {
    const account = store.get<Account>('account', id!);
    store.objects.delete(account.id);
    return { id: account.id, object: 'account', deleted: true };
  }),
  route('POST', '/v1/accounts/:id/login_links', (ctx, _params, [id]) => {
    const account = ctx.store.get<Account>('account', id!, 'account', 'account');
    if (!account.details_submitted)
      throw invalid(
        'Cannot create a login link for an account that has not completed onboarding.',
        'account',
      );
    return {
      object: 'login_link',
      created: ctx.store.seconds(),
      url: `${ctx.base}/connect/express/${account.id}`,
    };
  }),
  route('POST', '/v1/account_links', createAccountLink),

  route('POST', '/v1/billing_portal/sessions', (ctx, params) => {
    const customer = ctx.store.get('customer', params.required('customer'), 'customer', 'customer');
    const id = newId('bps');
    return ctx.store.put({
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_local',
      created: ctx.store.seconds(),
      customer: customer.id,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: params.string('return_url') ?? null,
      url: `${ctx.base}/p/session/${id}`,
    });
  }),

  route('POST', '/v1/webhook_endpoints', createWebhookEndpoint),
  route('GET', '/v1/webhook_endpoints', listOf('webhook_endpoint', '/v1/webhook_endpoints', [])),
  route('GET', '/v1/webhook_endpoints/:id', retrieve('webhook_endpoint')),
  route('POST', '/v1/webhook_endpoints/:id', ({ store }, params, [id]) => {
    const endpoint = store.get<WebhookEndpoint>('webhook_endpoint', id!);
    const enabled = params.strings('enabled_events');
    if (enabled.length > 0) endpoint.enabled_events = enabled;
    endpoint.url = params.string('url') ?? endpoint.url;
    const disabled = params.boolean('disabled');
    if (disabled !== undefined) endpoint.status = disabled ? 'disabled' : 'enabled';
    endpoint.metadata = params.metadata(endpoint.metadata);
    return endpoint;
  }),
  route('DELETE', '/v1/webhook_endpoints/:id', ({ store }, _params, [id]) => {
    const endpoint = store.get<WebhookEndpoint>('webhook_endpoint', id!);
    store.objects.delete(endpoint.id);
    return { id: endpoint.id, object: 'webhook_endpoint', deleted: true };
  }),

  route('GET', '/v1/events', listEvents),
  route('GET', '/v1/events/:id', retrieve('event')),
];

// ── expansion ───────────────────────────────────────────────────────────────────────────────

/** Fields Stripe can expand that are not ids stored on the object. */
const VIRTUAL: Record<string, Record<string, (store: Store, object: StripeObject) => unknown>> = {
  'checkout.session': {
    line_items: (store, object) =>
      list(`/v1/checkout/sessions/${object.id}/line_items`, lineItemsOf(store, object as CheckoutSession)),
  },
};

/** Applies one `expand[]` path (`customer`, `latest_invoice.payment_intent`, `data.customer`) to `value`. */
const expandPath = (store: Store, value: unknown, path: string[], full: string): unknown => {
  const [head, ...rest] = path;
  if (head === undefined || value === null || typeof value !== 'object') return value;
  const object = value as StripeObject;
  if (head === 'data' && object.object === 'list' && Array.isArray(object.data)) {
    object.data = object.data.map((item) => expandPath(store, item, rest, full));
    return object;
  }
  const virtual = VIRTUAL[object.object]?.[head];
  let field = virtual ? virtual(store, object) : object[head];
  if (field === undefined) throw invalid(`This property cannot be expanded (${full}).`, 'expand');
  if (typeof field === 'string') {
    const target = store.objects.get(field);
    if (!target) {
      if (/^[a-z]+_/.test(field)) return object; // an id of something the stand-in does not keep (txn_, fee_)
      throw invalid(`This property cannot be expanded (${full}).`, 'expand');
    }
    field = structuredClone(target);
  }
  object[head] = expandPath(store, field, rest, full);
  return object;
};

/** The answer to a request: a copy of `value` with the request's `expand[]` paths applied. */
export const expand = (store: Store, value: unknown, paths: string[]): unknown => {
  if (paths.length > 0 && paths.some((path) => path.split('.').length > 4))
    throw invalid('You cannot expand more than 4 levels of a property.', 'expand');
  let result = structuredClone(value);
  for (const path of paths) result = expandPath(store, result, path.split('.'), path);
  return result;
};
