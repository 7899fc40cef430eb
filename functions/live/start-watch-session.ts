import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { startWatching } from '../../shared/watch/watch-playback.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.startWatchSession, async ({ path, body, caller, now }) =>
  ok(await startWatching(path.id, caller().accountId, body, now)),
);
