import { guideQuery } from '../../shared/epg/schemas.ts';
import { guideSchedule } from '../../shared/epg/schedule.ts';
import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';

export const handler = httpHandler({ query: guideQuery }, async ({ query, now }) =>
  paged(await guideSchedule(query, now)),
);
