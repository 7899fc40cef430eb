import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { seriesQuery, showPath } from '../../shared/shows/schemas.ts';
import { creatorSeries } from '../../shared/shows/shows.ts';

export const handler = httpHandler({ path: showPath, query: seriesQuery }, async ({ path, query }) =>
  paged(await creatorSeries(path.id, query.page, query.limit)),
);
