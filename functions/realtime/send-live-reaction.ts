import { endpoint } from '../../shared/http/handler.ts';
import { accepted } from '../../shared/http/reply.ts';
import { reactLive } from '../../shared/realtime/realtime.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.sendLiveReaction, async ({ path, body, caller, now }) =>
  accepted(await reactLive(path.id, caller().accountId, body.emoji, now)),
);
