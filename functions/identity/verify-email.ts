import { verifyEmail } from '../../shared/identity/email-verification.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.verifyEmail, async ({ body, caller, now }) =>
  ok(await verifyEmail(caller().accountId, body.code, now)),
);
