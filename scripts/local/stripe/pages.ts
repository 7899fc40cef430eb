import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  completeCheckout,
  completeOnboarding,
  declineCheckout,
  expireIfDue,
  lineItemsOf,
  setCancelAtPeriodEnd,
  StateError,
} from './billing.ts';
import { parseForm } from './form.ts';
import { accountLinks } from './resources.ts';
import type { Account, CheckoutSession, Price, Store, Subscription } from './store.ts';

/**
 * The pages Stripe hosts, reduced to what a person (or a browser test) does on them:
 * - Checkout (`/c/pay/<session id>`, the session's `url`): the item, the amount, a card number
 *   (Stripe's test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined) and a Pay
 *   button; paid, it redirects to `success_url` with `{CHECKOUT_SESSION_ID}` filled in;
 * - Connect onboarding (`/connect/onboarding/<token>`, an Account Link's `url`): a Complete
 *   button that finishes onboarding and redirects to `return_url` (an expired link goes to
 *   `refresh_url`);
 * - the customer portal (`/p/session/<id>`, a portal session's `url`): the customer's
 *   subscriptions with Cancel (at period end) or Renew, and a link back to `return_url`.
 */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

const html = (res: ServerResponse, status: number, title: string, body: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
.amount{font-size:2rem;font-weight:600}button{background:#635bff;color:#fff;border:0;border-radius:6px;padding:.75rem 1.5rem;font-size:1rem;cursor:pointer}
input{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0 1rem}.error{color:#df1b41}.note{color:#697386;font-size:.85rem}</style>
</head><body><p class="note">Stripe stand-in (local, test mode)</p>${body}</body></html>`);
};

const redirect = (res: ServerResponse, location: string) => {
  res.writeHead(303, { location });
  res.end();
};

const readForm = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return parseForm(Buffer.concat(chunks).toString('utf8'));
};

/** Stripe's declining test card; any other number pays. */
const DECLINED_CARD = '4000000000000002';

const checkoutPage = (store: Store, session: CheckoutSession, error?: string) => {
  const items = lineItemsOf(store, session);
  const rows = items
    .map((item) => {
      const price = item.price as Price;
      const every = price.recurring
        ? ` / ${price.recurring.interval_count > 1 ? `${price.recurring.interval_count} ` : ''}${price.recurring.interval}`
        : '';
      return `<li data-testid="item"><span class="item-name">${escapeHtml(String(item.description ?? price.product))}</span> &times; ${String(item.quantity)}: ${money(item.amount_total as number, session.currency)}${every}</li>`;
    })
    .join('');
  const interval = items.map((i) => (i.price as Price).recurring).find(Boolean);
  return `<h1>${session.mode === 'subscription' ? 'Subscribe' : 'Pay'}</h1>
<ul>${rows}</ul>
<p class="amount" data-testid="amount">${money(session.amount_total, session.currency)}${interval ? ` <small>per ${interval.interval}</small>` : ''}</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
<label>Email<input name="email" type="email" value="${escapeHtml(session.customer_email ?? '')}" placeholder="you@example.com"></label>
<label>Card number<input name="card" inputmode="numeric" value="4242 4242 4242 4242"></label>
<button type="submit" data-testid="pay">${session.mode === 'subscription' ? 'Subscribe' : 'Pay'} ${money(session.amount_total, session.currency)}</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and go back</a></p>` : ''}`;
};

/** Serves the hosted pages; false when the request is not one of them. */
export const servePages = async (
  store: Store,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> => {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const checkout = /^\/c\/pay\/(cs_[A-Za-z0-9_]+)$/.exec(url.pathname);
  if (checkout) {
    const session = store.find<CheckoutSession>('checkout.session', checkout[1]!);
    if (!session) {
      html(
        res,
        404,
        'Not found',
        '<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>',
      );
      return true;
    }
    expireIfDue(store, session);
    if (session.status !== 'open') {
      const done = session.status === 'complete';
      html(
        res,
        done ? 200 : 410,
        done ? 'Paid' : 'Expired',
        done
          ? '<h1>Thanks for your payment</h1><p>This Checkout Session is complete.</p>'
          : '<h1>This Checkout Session has expired</h1>',
      );
      return true;
    }
    if (req.method === 'POST') {
      const form = await readForm(req);
      const card = String(form.card ?? '').replace(/\s+/g, '');
      const email = typeof form.email === 'string' && form.email ? form.email : undefined;
      if (card === DECLINED_CARD) {
        declineCheckout(store, session);
        html(
          res,
          402,
          'Declined',
          checkoutPage(store, session, 'Your card was declined. Try a different card.'),
        );
        return true;
      }
      completeCheckout(store, session, { email });
      const success = session.success_url?.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
      if (success) redirect(res, success);
      else html(res, 200, 'Paid', `<h1 data-testid="paid">Thanks for your payment</h1>`);
      return true;
    }
    html(res, 200, 'Checkout', checkoutPage(store, session));
    return true;
  }

  const onboarding = /^\/connect\/onboarding\/([a-f0-9]+)$/.exec(url.pathname);
  if (onboarding) {
    const grant = accountLinks.get(store)?.get(onboarding[1]!);
    if (!grant) {
      html(res, 404, 'Not found', '<h1>This link is not valid</h1>');
      return true;
    }
    if (grant.expiresAt < store.seconds()) {
      redirect(res, grant.refreshUrl);
      return true;
    }
    const account = store.get<Account>('account', grant.account);
    if (req.method === 'POST') {
      completeOnboarding(store, account);
      accountLinks.get(store)?.delete(onboarding[1]!);
      redirect(res, grant.returnUrl);
      return true;
    }
    html(
      res,
      200,
      'Onboarding',
      `<h1>Get paid with Stripe</h1><p>Account <code>${account.id}</code>${account.email ? ` (${escapeHtml(account.email)})` : ''}: business details, bank account and identity are taken as given.</p>
<form method="post"><button type="submit" data-testid="complete">Complete onboarding</button></form>`,
    );
    return true;
  }

  const express = /^\/connect\/express\/(acct_[A-Za-z0-9]+)$/.exec(url.pathname);
  if (express) {
    const account = store.find<Account>('account', express[1]!);
    html(
      res,
      account ? 200 : 404,
      'Express dashboard',
      account
        ? `<h1>Express dashboard</h1><p>${account.id}: charges ${account.charges_enabled ? 'enabled' : 'disabled'}, payouts ${account.payouts_enabled ? 'enabled' : 'disabled'}.</p>`
        : '<h1>Not found</h1>',
    );
    return true;
  }

  const portal = /^\/p\/session\/(bps_[A-Za-z0-9]+)(?:\/(cancel|renew))?$/.exec(url.pathname);
  if (portal) {
    const session = store.find('billing_portal.session', portal[1]!);
    if (!session) {
      html(res, 404, 'Not found', '<h1>This link has expired</h1>');
      return true;
    }
    const subscriptions = store
      .all<Subscription>('subscription')
      .filter((sub) => sub.customer === session.customer && sub.status !== 'canceled');
    if (req.method === 'POST' && portal[2]) {
      const form = await readForm(req);
      const subscription = subscriptions.find((sub) => sub.id === form.subscription);
      if (subscription) {
        try {
          setCancelAtPeriodEnd(store, subscription, portal[2] === 'cancel');
        } catch (error) {
          if (!(error instanceof StateError)) throw error;
        }
      }
      redirect(res, `/p/session/${session.id}`);
      return true;
    }
    const rows = subscriptions
      .map((sub) => {
        const item = sub.items.data[0]!;
        const until = new Date(item.current_period_end * 1000).toISOString().slice(0, 10);
        const action = sub.cancel_at_period_end ? 'renew' : 'cancel';
        return `<li data-testid="subscription">${escapeHtml(String(item.price.nickname ?? store.find('product', item.price.product)?.name ?? item.price.product))}: ${money(item.price.unit_amount, item.price.currency)} / ${item.price.recurring?.interval} &middot; ${sub.status}${sub.cancel_at_period_end ? `, cancels ${until}` : `, renews ${until}`}
<form method="post" action="/p/session/${session.id}/${action}"><input type="hidden" name="subscription" value="${sub.id}"><button type="submit" data-testid="${action}">${action === 'cancel' ? 'Cancel plan' : 'Renew plan'}</button></form></li>`;
      })
      .join('');
    html(
      res,
      200,
      'Billing',
      `<h1>Billing</h1><ul>${rows || '<li>No subscriptions</li>'}</ul>${session.return_url ? `<p><a href="${escapeHtml(String(session.return_url))}">Return</a></p>` : ''}`,
    );
    return true;
  }
  return false;
};
