import { addModerator, studioChat } from '../../shared/chat/moderation.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.putChatModerator, async ({ path, caller, now }) =>
  ok(await addModerator(await studioChat(caller().accountId, undefined, now), path.account_id, now)),
);
