import { channelPath, scheduleQuery } from '../../shared/epg/schemas.ts';
import { channelSchedule } from '../../shared/epg/schedule.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';

export const handler = httpHandler(
  { path: channelPath, query: scheduleQuery },
  async ({ path, query, now }) => ok(await channelSchedule(path.id, query, now)),
);
