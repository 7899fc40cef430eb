import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { searchShowsQuery } from '../../shared/shows/schemas.ts';
import { findShows } from '../../shared/shows/shows.ts';

export const handler = httpHandler({ query: searchShowsQuery }, async ({ query }) =>
  paged(await findShows(query)),
);
