import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveStream } from '../../shared/watch/watch-playback.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getLiveStream, async ({ path, query, caller, now }) =>
  ok(await liveStream(path.id, caller().accountId, query, now)),
);
