import { guideSchedule } from '../../shared/epg/guide.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.getGuideSchedule, async ({ query, now }) =>
  paged(await guideSchedule(query, now)),
);
