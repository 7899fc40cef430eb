import { myEntitlements } from '../../shared/entitlements/my-entitlements.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listMyEntitlements, async ({ caller, now }) =>
  ok(await myEntitlements(caller().accountId, now)),
);
