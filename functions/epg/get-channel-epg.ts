import { channelEpg } from '../../shared/epg/channel-schedule.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getChannelEpg, async ({ path, query, now }) =>
  ok(await channelEpg(path.id, query, now)),
);
