import { logOut } from '../../shared/accounts/credentials.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.logOut, async ({ body, caller, now }) => {
  await logOut(caller(), body.refresh_token, now);
  return noContent();
});
