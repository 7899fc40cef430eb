import {
  chargeOf,
  closeDispute,
  completeCheckout,
  completeOnboarding,
  declineCheckout,
  disputeOf,
  expireSession,
  failRetry,
  openDispute,
  recover,
  refundCharge,
  renew,
  subscriptionOf,
} from './billing.ts';
import { noSuch, StripeApiError } from './params.ts';
import type { Account, CheckoutSession, Store, StripeEvent, StripeObject } from './store.ts';

/**
 * What the card network and the payer do, for `npm run pay` (not part of Stripe's API): served
 * as `POST /_standin/pay/<action>` with `{"id": "<id>"}` on the stand-in's port. Each action
 * answers the object it changed and the events it made, in order.
 */
export const PAY_ACTIONS = [
  'complete',
  'decline',
  'expire',
  'renew',
  'fail-renewal',
  'recover',
  'refund',
  'dispute',
  'win-dispute',
  'lose-dispute',
  'onboard',
] as const;
export type PayAction = (typeof PAY_ACTIONS)[number];

const session = (store: Store, id: string): CheckoutSession => {
  const found = store.find<CheckoutSession>('checkout.session', id);
  if (!found) throw noSuch('checkout session', id);
  return found;
};

/** A connected account by its id, or by the creator id in its `metadata.creator_id`. */
export const accountOf = (store: Store, id: string): Account => {
  const found =
    store.find<Account>('account', id) ??
    store.all<Account>('account').find((account) => account.metadata.creator_id === id);
  if (!found)
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `No connected account ${id.startsWith('acct_') ? id : `with metadata.creator_id ${id}`}: the creator starts onboarding with POST /studio/payouts/onboarding`,
      'resource_missing',
    );
  return found;
};

const ACTIONS: Record<PayAction, (store: Store, id: string, options: { amount?: number }) => StripeObject> = {
  complete: (store, id) => completeCheckout(store, session(store, id)),
  decline: (store, id) => declineCheckout(store, session(store, id)),
  expire: (store, id) => expireSession(store, session(store, id)),
  renew: (store, id) => renew(store, subscriptionOf(store, id), 'succeeded'),
  'fail-renewal': (store, id) => {
    const subscription = subscriptionOf(store, id);
    return subscription.status === 'past_due'
      ? failRetry(store, subscription)
      : renew(store, subscription, 'declined');
  },
  recover: (store, id) => recover(store, subscriptionOf(store, id)),
  refund: (store, id, { amount }) =>
    refundCharge(store, chargeOf(store, id), { amount, reason: 'requested_by_customer' }),
  dispute: (store, id) => openDispute(store, chargeOf(store, id)),
  'win-dispute': (store, id) => closeDispute(store, disputeOf(store, id), 'won'),
  'lose-dispute': (store, id) => closeDispute(store, disputeOf(store, id), 'lost'),
  onboard: (store, id) => completeOnboarding(store, accountOf(store, id)),
};

/** Runs `action` on `id`; throws StripeApiError (unknown id) or StateError (wrong state). */
export const runPayAction = (
  store: Store,
  action: PayAction,
  id: string,
  options: { amount?: number } = {},
) => {
  const before = new Set(store.all<StripeEvent>('event').map((event) => event.id));
  const object = ACTIONS[action](store, id, options);
  const events = store
    .all<StripeEvent>('event')
    .filter((event) => !before.has(event.id))
    .reverse()
    .map((event) => ({
      id: event.id,
      type: event.type,
      ...(event.account ? { account: event.account } : {}),
    }));
  return {
    action,
    object: {
      id: object.id,
      object: object.object,
      ...('status' in object ? { status: object.status } : {}),
    },
    events,
  };
};
