import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { creatorSeries } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listCreatorSeries, async ({ path, query }) =>
  paged(await creatorSeries(path.id, query.page, query.limit)),
);
