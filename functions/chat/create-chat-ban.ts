import { banUser, studioChat } from '../../shared/chat/moderation.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { created } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createChatBan, async ({ query, body, caller, now }) =>
  created(await banUser(await studioChat(caller().accountId, query.channel, now), body, now)),
);
