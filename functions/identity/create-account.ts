import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import { signUp } from '../../shared/identity/onboarding.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createAccount, async ({ body, now, headers }) =>
  created(await signUp(body, now, headers['user-agent']), noStore),
);
