import { deleteChatMessage, studioChat } from '../../shared/chat/moderation.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteChatMessage, async ({ query, path, caller, now }) => {
  await deleteChatMessage(
    await studioChat(caller().accountId, query.channel, now),
    path.message_id,
    query.reason,
    now,
  );
  return noContent();
});
