import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { requestEmailVerification } from '../../shared/identity/email-verification.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.sendEmailVerification, async ({ caller, now }) =>
  ok(await requestEmailVerification(caller().accountId, now)),
);
