import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveMetadata } from '../../shared/watch/watch-sessions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getLiveMetadata, async ({ path, now }) =>
  ok(await liveMetadata(path.id, now)),
);
