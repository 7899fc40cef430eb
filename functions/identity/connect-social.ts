import { connectSocial } from '../../shared/identity/onboarding.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.connectSocial, async ({ body, caller, now }) =>
  ok(await connectSocial(caller().accountId, body, now)),
);
