import { featuredCreators } from '../../shared/creators/creators.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listFeaturedCreators, async ({ query }) =>
  paged(await featuredCreators(query.page, query.limit)),
);
