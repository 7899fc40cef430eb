import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import { unreact } from '../../shared/reactions/reactions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.removeReaction, async ({ body, caller }) => {
  await unreact(caller().accountId, body);
  return noContent();
});
