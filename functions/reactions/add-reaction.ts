import { httpHandler } from '../../shared/http/handler.ts';
import { created, ok } from '../../shared/http/reply.ts';
import { react } from '../../shared/reactions/reactions.ts';
import { reactionBody } from '../../shared/reactions/schemas.ts';

export const handler = httpHandler({ body: reactionBody }, async ({ body, caller, now }) => {
  const result = await react(caller().accountId, body, now);
  return result.created ? created(result.reaction) : ok(result.reaction);
});
