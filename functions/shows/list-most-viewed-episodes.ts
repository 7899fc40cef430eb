import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { mostViewedEpisodes } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listMostViewedEpisodes, async ({ query }) =>
  paged(await mostViewedEpisodes(query)),
);
