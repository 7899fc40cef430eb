import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { linkAppleTransaction } from '../../shared/stores/apple-notifications.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.linkAppleTransaction, async ({ body, caller, now }) =>
  ok(await linkAppleTransaction(caller().accountId, body.signed_transaction, now)),
);
