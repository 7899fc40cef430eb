import { getChatSettings } from '../../shared/chat/chat-repository.ts';
import { studioChat } from '../../shared/chat/studio-chat.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getChatSettings, async ({ query, caller, now }) =>
  ok(await getChatSettings((await studioChat(caller().accountId, query.channel, now)).creatorId)),
);
