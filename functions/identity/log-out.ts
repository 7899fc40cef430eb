import { httpHandler } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { revokeSession } from '../../shared/identity/refresh-tokens.ts';
import { refreshBody } from '../../shared/identity/schemas.ts';

export const handler = httpHandler({ body: refreshBody }, async ({ body, caller }) => {
  await revokeSession(body.refresh_token, caller().accountId);
  return noContent();
});
