import { endpoint } from '../../shared/http/handler.ts';
import { accepted, created, ok } from '../../shared/http/reply.ts';
import { googleSignIn } from '../../shared/identity/google-sign-in.ts';
import { noStore } from '../../shared/identity/no-store.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.signInWithGoogle, async ({ body, now, headers }) => {
  const result = await googleSignIn(body, now, headers['user-agent']);
  if ('challenge' in result) return accepted(result.challenge, noStore);
  return result.created ? created(result.body, noStore) : ok(result.body, noStore);
});
