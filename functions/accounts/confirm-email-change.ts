import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { confirmEmailChange } from '../../shared/accounts/credentials.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.confirmEmailChange, async ({ body, caller, now }) =>
  ok(await confirmEmailChange(caller(), body.code, now)),
);
