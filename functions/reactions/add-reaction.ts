import { endpoint } from '../../shared/http/handler.ts';
import { created, ok } from '../../shared/http/reply.ts';
import { react } from '../../shared/reactions/reactions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.addReaction, async ({ body, caller, now }) => {
  const result = await react(caller().accountId, body, now);
  return result.created ? created(result.reaction) : ok(result.reaction);
});
