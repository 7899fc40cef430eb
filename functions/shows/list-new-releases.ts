import { httpHandler } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { categoryPageQuery10 } from '../../shared/shows/schemas.ts';
import { newReleases } from '../../shared/shows/shows.ts';

export const handler = httpHandler({ query: categoryPageQuery10 }, async ({ query }) =>
  paged(await newReleases(query)),
);
