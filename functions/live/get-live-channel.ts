import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveChannel } from '../../shared/watch/watch-sessions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getLiveChannel, async ({ path, principal, now }) =>
  ok(await liveChannel(path.id, principal?.accountId, now)),
);
