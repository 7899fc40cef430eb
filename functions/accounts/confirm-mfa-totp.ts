import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { confirmTotp } from '../../shared/identity/second-factor.ts';
import * as contracts from './mfa-contracts.ts';

export const handler = endpoint(contracts.confirmTotp, async ({ body, caller, now }) =>
  ok(await confirmTotp(caller(), body.code, now), noStore),
);
