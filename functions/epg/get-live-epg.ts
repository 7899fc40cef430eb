import { liveEpg } from '../../shared/epg/channel-schedule.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getLiveEpg, async ({ path, query, now }) =>
  ok(await liveEpg(path.id, query, now)),
);
