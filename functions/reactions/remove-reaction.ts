import { httpHandler } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { unreact } from '../../shared/reactions/reactions.ts';
import { reactionBody } from '../../shared/reactions/schemas.ts';

export const handler = httpHandler({ body: reactionBody }, async ({ body, caller }) => {
  await unreact(caller().accountId, body);
  return noContent();
});
