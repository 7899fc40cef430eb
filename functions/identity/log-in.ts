import { logIn } from '../../shared/identity/onboarding.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { accepted, ok } from '../../shared/http/reply.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.logIn, async ({ body, now, headers }) => {
  const result = await logIn(body, now, headers['user-agent']);
  return 'challenge' in result ? accepted(result.challenge, noStore) : ok(result.signedIn, noStore);
});
