import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { listShowsQuery } from '../../shared/shows/schemas.ts';
import { browseShows } from '../../shared/shows/shows.ts';

export const handler = httpHandler({ query: listShowsQuery }, async ({ query }) =>
  paged(await browseShows(query)),
);
