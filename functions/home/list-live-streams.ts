import { liveStreams } from '../../shared/home/home.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listLiveStreams, async ({ query }) =>
  paged(await liveStreams(query.page, query.limit)),
);
