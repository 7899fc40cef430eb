import { studioChat, unbanUser } from '../../shared/chat/moderation.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteChatBan, async ({ query, path, caller, now }) => {
  await unbanUser(await studioChat(caller().accountId, query.channel, now), path.account_id, now);
  return noContent();
});
