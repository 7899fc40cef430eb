import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveViewers } from '../../shared/watch/watch-sessions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getLiveViewers, async ({ path, now }) =>
  ok(await liveViewers(path.id, now)),
);
