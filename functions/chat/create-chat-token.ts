import { issueChatToken } from '../../shared/chat/tokens.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.createChatToken, async ({ path, principal, now }) =>
  ok(await issueChatToken(path.id, principal, now), { headers: { 'cache-control': 'no-store' } }),
);
