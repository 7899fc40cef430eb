import { liveEpgNext } from '../../shared/epg/channel-schedule.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listLiveEpgNext, async ({ path, query, now }) =>
  ok(await liveEpgNext(path.id, query.timezone, query.limit, now)),
);
