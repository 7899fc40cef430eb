/**
 * `npm run pay -- <action> <id> [amount]`: what a card network and a payer would make Stripe do,
 * against the running `npm start` (its Stripe stand-in on STRIPE_PORT, default PORT + 2;
 * docs/local-stripe.md). The id is a Checkout Session's (`POST /checkout` answers it as
 * `checkout_id`), or a subscription, invoice, payment intent or charge where that fits.
 *   complete       the payer pays the session (a subscription starts, or a purchase is paid)
 *   decline        the payer's card is declined (the session stays open)
 *   expire         the session expires unpaid
 *   renew          the subscription's period ends and the renewal is paid (or it ends, if cancelling)
 *   fail-renewal   the renewal's payment fails (past_due; again: the retry fails; the 4th ends it)
 *   recover        the retried renewal succeeds (active again)
 *   refund         the latest payment is refunded in full (or `amount`, in minor units)
 *   dispute        the cardholder disputes the latest payment
 *   win-dispute    the dispute is won (lose-dispute: lost)
 * `npm run pay -- onboard <creator id | acct_ id>` completes a creator's Connect onboarding.
 * `npm run pay -- apple <type> <account id> <creator id>`: the App Store's side (scripts/local/stores-pay.ts).
 * Prints the events Stripe sent, then how the webhook deliveries went.
 */
import { PAY_ACTIONS } from './local/stripe/control.ts';
import { standInPort } from './local/ports.ts';
import { payStore } from './local/stores-pay.ts';

// The app stores: `npm run pay -- apple|google <type> <account id> <creator id>` (scripts/local/stores-pay.ts).
if (process.argv[2] === 'apple' || process.argv[2] === 'google')
  process.exit(await payStore(process.argv.slice(2)));

const [action, id, amount] = process.argv.slice(2);
if (!action || !(PAY_ACTIONS as readonly string[]).includes(action) || !id) {
  console.error(`usage: npm run pay -- <${PAY_ACTIONS.join('|')}> <checkout id | creator id> [amount]`);
  process.exit(2);
}
const base = `http://127.0.0.1:${standInPort('stripe', process.env)}`;
interface Outcome {
  object: { id: string; object: string; status?: string };
  events: Array<{ id: string; type: string; account?: string }>;
  error?: { message: string };
}
let outcome: Outcome;
try {
  const res = await fetch(`${base}/_standin/pay/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, ...(amount ? { amount: Number(amount) } : {}) }),
  });
  outcome = (await res.json()) as Outcome;
  if (!res.ok) {
    console.error(`${action} ${id}: ${outcome.error?.message ?? res.statusText}`);
    process.exit(1);
  }
} catch (error) {
  console.error(
    `No Stripe stand-in at ${base} (${(error as Error).message}): is npm start running with the same PORT?`,
  );
  process.exit(1);
}
const { object, events } = outcome;
console.log(`${action}: ${object.object} ${object.id}${object.status ? ` is ${object.status}` : ''}`);
for (const event of events)
  console.log(`  ${event.id}  ${event.type}${event.account ? ` (${event.account})` : ''}`);
if (events.length > 0) {
  const query = events.map((event) => `event=${event.id}`).join('&');
  const res = await fetch(`${base}/_standin/deliveries?wait=1&${query}`);
  const { deliveries } = (await res.json()) as {
    deliveries: Array<{
      event: string;
      type: string;
      url: string;
      attempt: number;
      status: number;
      error?: string;
    }>;
  };
  const failed = deliveries.filter((d) => d.status < 200 || d.status >= 300);
  const delivered = deliveries.length - failed.length;
  console.log(`webhooks: ${delivered} of ${deliveries.length} attempts answered 2xx`);
  for (const d of failed)
    console.log(`  ${d.type} ${d.event} to ${d.url}: attempt ${d.attempt} ${d.status || d.error}`);
}
