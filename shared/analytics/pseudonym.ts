import { createHmac } from 'node:crypto';
import { keyFromSecret } from '../playback/key-secret.ts';

/**
 * Account ids never reach the analytics store (docs/accounts.md "Analytics"): a row's `account_id`
 * is `ak_` + HMAC-SHA-256 of the id under the pseudonym key (Secrets Manager,
 * PSEUDONYM_SECRET_ARN, read once per container), base64url, 32 characters. The same account
 * always gets the same value (unique viewers still count), but the value cannot be turned back
 * into the id, and without the key it cannot be recomputed from an id either. Playback items
 * (shared/analytics/playback-count.ts) carry the same value.
 */
const pseudonymKey = /* @__PURE__ */ keyFromSecret('PSEUDONYM_SECRET_ARN');

/** The keyed hash analytics stores for `accountId` (undefined for an anonymous sender). Loads the key on every call's first use, signed in or not. */
export const accountKeyOf = async (accountId: string | undefined): Promise<string | undefined> => {
  const key = await pseudonymKey();
  return accountId === undefined
    ? undefined
    : `ak_${createHmac('sha256', key).update(accountId).digest('base64url').slice(0, 32)}`;
};
