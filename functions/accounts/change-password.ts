import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { changePassword } from '../../shared/identity/credentials.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.changePassword, async ({ body, caller, now }) =>
  ok(await changePassword(caller(), body, now)),
);
