import { currentSchedule } from '../../shared/epg/channel-schedule.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getCurrentProgram, async ({ path, query, now }) =>
  ok(await currentSchedule(path.id, query.timezone, now)),
);
