import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { liveQualities } from '../../shared/watch/watch-sessions.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listLiveQualities, async ({ path, query, caller, now }) =>
  ok(await liveQualities(path.id, caller().accountId, query.session_id, now)),
);
