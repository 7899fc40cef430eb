import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import { completeMfaSignIn } from '../../shared/identity/second-factor.ts';
import * as contracts from './mfa-contracts.ts';

export const handler = endpoint(contracts.completeMfaSignIn, async ({ body, now, headers }) =>
  ok(await completeMfaSignIn(body, now, headers['user-agent']), noStore),
);
