import { setChatSettings, studioChat } from '../../shared/chat/moderation.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.putChatSettings, async ({ query, body, caller, now }) =>
  ok(await setChatSettings(await studioChat(caller().accountId, query.channel, now), body, now)),
);
