import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { signOutSession } from '../../shared/accounts/credentials.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.signOutSession, async ({ path, caller, now }) => {
  await signOutSession(caller(), path.id, now);
  return noContent();
});
