import { channelPath, upcomingQuery } from '../../shared/epg/schemas.ts';
import { upcomingSchedule } from '../../shared/epg/schedule.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler(
  { path: channelPath, query: upcomingQuery(3) },
  async ({ path, query, now }) =>
    ok(await upcomingSchedule(path.id, query.timezone, query.limit, now, 'live')),
);
