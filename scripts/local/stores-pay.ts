import { standInPort } from './ports.ts';
import { APPLE_PAY_TYPES } from './appstore/types.ts';
import { GOOGLE_PAY_TYPES } from './play/types.ts';

/**
 * `npm run pay -- apple <type>[:<subtype>] <account id> <creator id | ppv:<content id>>`: what
 * Apple's side would do (a subscriber pays, renews, is refunded...), against the running
 * `npm start`: its App Store stand-in (APP_STORE_PORT, default PORT + 6) changes its record and
 * sends the signed V2 notification to the API. Prints the notification and the API's answer.
 * Exit 1 with the message for an unknown account or a wrong state, 2 for bad usage.
 */
export const payStore = async (args: readonly string[]): Promise<number> => {
  const [store, type, accountId, target] = args;
  if (store === 'apple') {
    const base = type?.split(':')[0];
    if (!base || !(APPLE_PAY_TYPES as readonly string[]).includes(base) || !accountId || !target) {
      console.error(
        `usage: npm run pay -- apple <${APPLE_PAY_TYPES.join('|')}>[:<subtype>] <account id> <creator id | ppv:<content id>>`,
      );
      return 2;
    }
    const base_url = `http://127.0.0.1:${standInPort('appStore', process.env)}`;
    let res: Response;
    try {
      res = await fetch(`${base_url}/_standin/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, account_id: accountId, target }),
      });
    } catch (error) {
      console.error(
        `No App Store stand-in at ${base_url} (${(error as Error).message}): is npm start running with the same PORT?`,
      );
      return 1;
    }
    const outcome = (await res.json()) as {
      error?: { message: string };
      notification: {
        uuid: string;
        type: string;
        subtype?: string;
        product_id: string;
        original_transaction_id: string;
      };
      delivery: { url: string | null; status: number; body: unknown };
    };
    if (!res.ok) {
      console.error(`apple ${type} ${accountId}: ${outcome.error?.message ?? res.statusText}`);
      return 1;
    }
    const { notification: n, delivery: d } = outcome;
    console.log(
      `apple: ${n.type}${n.subtype ? ` (${n.subtype})` : ''} ${n.uuid} for ${n.product_id}, original transaction ${n.original_transaction_id}`,
    );
    console.log(
      `notification: ${d.url ?? '(none registered)'} answered ${d.status} ${JSON.stringify(d.body)}`,
    );
    return d.status >= 200 && d.status < 300 ? 0 : 1;
  }
  if (store === 'google') {
    if (!type || !(GOOGLE_PAY_TYPES as readonly string[]).includes(type) || !accountId || !target) {
      console.error(
        `usage: npm run pay -- google <${GOOGLE_PAY_TYPES.join('|')}> <account id> <creator id | ppv:<content id>>`,
      );
      return 2;
    }
    const base_url = `http://127.0.0.1:${standInPort('play', process.env)}`;
    let res: Response;
    try {
      res = await fetch(`${base_url}/_standin/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, account_id: accountId, target }),
      });
    } catch (error) {
      console.error(
        `No Google Play stand-in at ${base_url} (${(error as Error).message}): is npm start running with the same PORT?`,
      );
      return 1;
    }
    const outcome = (await res.json()) as {
      error?: { message: string };
      notification: { message_id: string; type: string; purchase_token: string; product_id: string };
      delivery: { url: string | null; status: number; body: unknown };
    };
    if (!res.ok) {
      console.error(`google ${type} ${accountId}: ${outcome.error?.message ?? res.statusText}`);
      return 1;
    }
    const { notification: n, delivery: d } = outcome;
    console.log(
      `google: ${n.type} message ${n.message_id} for ${n.product_id}, purchase token ${n.purchase_token}`,
    );
    console.log(`push: ${d.url ?? '(none registered)'} answered ${d.status} ${JSON.stringify(d.body)}`);
    return d.status >= 200 && d.status < 300 ? 0 : 1;
  }
  console.error('usage: npm run pay -- apple|google <type> <account id> <creator id | ppv:<content id>>');
  return 2;
};
