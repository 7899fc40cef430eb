import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { revokeSession } from '../../shared/identity/refresh-tokens.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.logOut, async ({ body, caller }) => {
  await revokeSession(body.refresh_token, caller().accountId);
  return noContent();
});
