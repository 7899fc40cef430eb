import { logIn } from '../../shared/identity/onboarding.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.logIn, async ({ body, now, headers }) =>
  ok(await logIn(body, now, headers['user-agent']), noStore),
);
