import { removeModerator, studioChat } from '../../shared/chat/moderation.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { noContent } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.deleteChatModerator, async ({ path, caller, now }) => {
  await removeModerator(await studioChat(caller().accountId, undefined, now), path.account_id, now);
  return noContent();
});
