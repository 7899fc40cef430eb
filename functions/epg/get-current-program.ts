import { channelPath, timezoneQuery } from '../../shared/epg/schemas.ts';
import { currentSchedule } from '../../shared/epg/schedule.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler(
  { path: channelPath, query: timezoneQuery },
  async ({ path, query, now }) => ok(await currentSchedule(path.id, query.timezone, now, 'schedule')),
);
