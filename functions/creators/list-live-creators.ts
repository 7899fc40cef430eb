import { liveCreators } from '../../shared/creators/creators.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listLiveCreators, async ({ query }) =>
  paged(await liveCreators(query.page, query.limit)),
);
